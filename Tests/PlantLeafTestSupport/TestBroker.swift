import Foundation
import PlantLeafCore
import PlantLeafCamera
import PlantLeafSupport

/// A mosquitto broker of a test's own (Debian's `mosquitto`), listening on 127.0.0.1 at a free
/// port, with its config, password file and log in a temporary folder. `stop` and `start` again
/// restart it on the same port; deinit stops it and removes the folder.
///
/// The broker and the readers run as `BackgroundProcess`es, so none outlives a test that crashed
/// or hung; the commands that set it up run with `runCommand`'s time limits.
public final class TestBroker {
    public let port: Int
    public let folder: String
    private var process: BackgroundProcess?

    /// Seconds a broker may run at most.
    public static let lifetime = 300

    /// The CA certificate that signed the broker's own, when it speaks TLS.
    public let caFile: String?

    /// - Parameters:
    ///   - users: user name to password; when empty, anonymous clients are allowed, otherwise
    ///     only these users (a password file made with `mosquitto_passwd -b -c`).
    ///   - tls: whether the listener speaks TLS, with a certificate for 127.0.0.1 signed by a CA
    ///     made for this broker (`caFile`).
    public init(users: [String: String] = [:], tls: Bool = false) throws {
        port = try freeLocalPort()
        let folder = TestPaths.temporaryDirectory("broker")
        self.folder = folder
        do {
            var config = ["listener \(port) 127.0.0.1", "persistence false",
                          "log_dest file \(folder)/mosquitto.log", "log_type all",
                          // As root, mosquitto would switch to the 'mosquitto' user, who cannot read the
                          // password file in this folder: naming the current user keeps it as it is.
                          "user \(NSUserName())"]
            if users.isEmpty {
                config.append("allow_anonymous true")
            } else {
                config += ["allow_anonymous false", "password_file \(folder)/passwords"]
                for (index, (user, password)) in users.sorted(by: { $0.key < $1.key }).enumerated() {
                    let arguments = ["-b"] + (index == 0 ? ["-c"] : []) + ["\(folder)/passwords", user, password]
                    let result = try runCommand("/usr/bin/mosquitto_passwd", arguments, timeLimit: 10)
                    guard result.status == 0 else { throw TestBrokerError("mosquitto_passwd failed: \(result.stderr)") }
                }
            }
            if tls {
                let authority = try makeCertificateAuthority(in: folder, name: "ca")
                try openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=127.0.0.1",
                             "-keyout", folder + "/server.key", "-out", folder + "/server.csr"])
                try "subjectAltName = IP:127.0.0.1\n".write(toFile: folder + "/server.ext", atomically: true, encoding: .utf8)
                try openssl(["x509", "-req", "-in", folder + "/server.csr", "-CA", authority.certificate, "-CAkey", authority.key,
                             "-CAcreateserial", "-days", "2", "-extfile", folder + "/server.ext", "-out", folder + "/server.pem"])
                config += ["cafile \(authority.certificate)", "certfile \(folder)/server.pem", "keyfile \(folder)/server.key"]
                caFile = authority.certificate
            } else {
                caFile = nil
            }
            try (config.joined(separator: "\n") + "\n").write(toFile: folder + "/mosquitto.conf", atomically: true, encoding: .utf8)
        } catch {
            // A broker whose set-up failed may never be deinitialised, so its folder goes here.
            TestPaths.removeTemporaryDirectory(folder)
            throw error
        }
        try start()
    }

    deinit {
        stop()
        TestPaths.removeTemporaryDirectory(folder)
    }

    /// Starts the broker and waits (up to 10 s) until it accepts connections.
    public func start() throws {
        precondition(process == nil, "broker already running")
        process = try BackgroundProcess("/usr/sbin/mosquitto", ["-c", folder + "/mosquitto.conf"],
                                        lifetime: TestBroker.lifetime, output: folder + "/mosquitto.out")
        let deadline = Date().addingTimeInterval(10)
        while !acceptsConnections(port: port) {
            guard Date() < deadline, process?.isRunning == true else {
                throw TestBrokerError("mosquitto did not start listening on 127.0.0.1:\(port): \(log)")
            }
            usleep(20_000)
        }
    }

    /// Stops the broker (SIGTERM, then SIGKILL after 5 s) and waits for it to end.
    public func stop() {
        process?.stop()
        process = nil
    }

    /// The broker's log so far, for failure messages.
    public var log: String {
        ((try? String(contentsOfFile: folder + "/mosquitto.log", encoding: .utf8)) ?? "")
            + ((try? String(contentsOfFile: folder + "/mosquitto.out", encoding: .utf8)) ?? "")
    }
}

/// A self-signed CA certificate and its key, `name`.pem and `name`.key in `folder`.
public func makeCertificateAuthority(in folder: String, name: String) throws -> (certificate: String, key: String) {
    let certificate = "\(folder)/\(name).pem", key = "\(folder)/\(name).key"
    try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                 "-subj", "/CN=PlantLeaf test CA \(name)", "-keyout", key, "-out", certificate])
    return (certificate, key)
}

private func openssl(_ arguments: [String]) throws {
    let result = try runCommand("/usr/bin/openssl", arguments, timeLimit: 30)
    guard result.status == 0 else { throw TestBrokerError("openssl \(arguments[0]) failed: \(result.stderr)") }
}

/// One message as `mosquitto_sub` printed it.
public struct ReceivedMessage: Equatable, CustomStringConvertible {
    public var retained: Bool
    public var topic: String
    public var payload: String
    public var description: String { "\(retained ? "retained " : "")\(topic) \(payload)" }

    public init(retained: Bool, topic: String, payload: String) {
        self.retained = retained
        self.topic = topic
        self.payload = payload
    }
}

/// `mosquitto_sub` in the background, subscribed (QoS 1) to `topics` on a test broker; every
/// message it receives is one line of its output file.
public final class TopicReader {
    private let process: BackgroundProcess
    private let outputPath: String

    /// - Parameter hexPayloads: payloads as lowercase hex, for binary ones (an image) that could
    ///   hold a newline.
    public init(port: Int, topics: [String], folder: String, hexPayloads: Bool = false) throws {
        outputPath = folder + "/reader-\(UUID().uuidString.prefix(8)).out"
        // %r: retain flag, %t: topic, %p: payload (%x: in hex); one message a line.
        let arguments = ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-F", hexPayloads ? "%r %t %x" : "%r %t %p"]
            + topics.flatMap { ["-t", $0] }
        process = try BackgroundProcess("/usr/bin/mosquitto_sub", arguments, lifetime: TestBroker.lifetime, output: outputPath)
    }


    /// Every message received so far.
    public var messages: [ReceivedMessage] {
        // Lossy: a binary payload (an image) must not hide the text ones around it.
        let text = FileManager.default.contents(atPath: outputPath).map { String(decoding: $0, as: UTF8.self) } ?? ""
        // mosquitto_sub may be part way through writing a long message: only whole lines count.
        let wholeLines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        return wholeLines.compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { return nil }
            return ReceivedMessage(retained: parts[0] == "1", topic: String(parts[1]), payload: String(parts[2]))
        }
    }

    /// Waits up to `timeout` seconds for a message that satisfies `predicate`.
    public func waitFor(timeout: Double = 10, _ predicate: (ReceivedMessage) -> Bool) -> ReceivedMessage? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let found = messages.first(where: predicate) { return found }
            usleep(20_000)
        } while Date() < deadline
        return nil
    }

    public func stop() { process.stop() }
}

public struct TestBrokerError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// A TCP port on 127.0.0.1 that nothing listens on now (the kernel's pick for port 0).
public func freeLocalPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw TestBrokerError("socket: \(SystemError(errno))") }
    defer { close(descriptor) }
    var address = loopbackAddress(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
            bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
        }
    }
    guard bound else { throw TestBrokerError("bind: \(SystemError(errno))") }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Whether something accepts TCP connections on 127.0.0.1:`port`.
public func acceptsConnections(port: Int) -> Bool {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    let address = loopbackAddress(port: port)
    return withUnsafePointer(to: address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
}

private func loopbackAddress(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    return address
}

/// A hostile fake broker on 127.0.0.1: it accepts every client's CONNECT, then sends it PUBLISH
/// packets with QoS 2 that it never releases (no PUBREL), `packetBytes` each, until
/// `bytesPerConnection` are sent or the client goes. A client that keeps them grows by as much.
public final class FloodingBroker: @unchecked Sendable {
    public let port: Int
    private let listener: Int32
    private let packet: [UInt8]
    private let bytesPerConnection: Int
    private let lock = NSLock()
    private var accepted = 0
    private var stopped = false

    public init(packetBytes: Int = 1 << 20, bytesPerConnection: Int = 256 << 20) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestBrokerError("socket: \(SystemError(errno))") }
        var address = loopbackAddress(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        } && listen(descriptor, 8) == 0
        guard listening else {
            close(descriptor)
            throw TestBrokerError("bind or listen: \(SystemError(errno))")
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        self.bytesPerConnection = bytesPerConnection
        packet = FloodingBroker.qos2Publish(payloadBytes: packetBytes)
        Thread { [self] in acceptClients() }.start()
    }

    deinit { stop() }

    /// Connections accepted so far.
    public var connections: Int { lock.withLock { accepted } }

    /// Stops accepting; connections being flooded end at their next send.
    public func stop() {
        let first: Bool = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        if first { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    private func acceptClients() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0, !lock.withLock({ stopped }) else {
                if client >= 0 { close(client) }
                if errno == EINTR { continue }
                close(listener)
                return
            }
            lock.withLock { accepted += 1 }
            Thread { [self] in flood(client) }.start()
        }
    }

    private func flood(_ client: Int32) {
        defer { close(client) }
        var connect = [UInt8](repeating: 0, count: 4096)
        guard recv(client, &connect, connect.count, 0) > 0, connect[0] == 0x10 else { return }
        let connack: [UInt8] = [0x20, 0x02, 0x00, 0x00]
        guard send(client, connack, connack.count, Int32(MSG_NOSIGNAL)) == connack.count else { return }
        var sent = 0
        while sent < bytesPerConnection && !lock.withLock({ stopped }) {
            let written = packet.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written == packet.count else { return }
            sent += written
        }
    }

    /// PUBLISH, QoS 2 (fixed header 0x34), topic "x", packet id 1, `payloadBytes` bytes.
    static func qos2Publish(payloadBytes: Int) -> [UInt8] {
        var remaining = 2 + 1 + 2 + payloadBytes
        var header: [UInt8] = [0x34]
        repeat {
            var byte = UInt8(remaining % 128)
            remaining /= 128
            if remaining > 0 { byte |= 0x80 }
            header.append(byte)
        } while remaining > 0
        return header + [0x00, 0x01, UInt8(ascii: "x"), 0x00, 0x01] + [UInt8](repeating: 0x2A, count: payloadBytes)
    }
}

/// A TCP port on 127.0.0.1 that takes connections and never answers: the kernel completes each
/// handshake into the listen queue, and nothing ever accepts, reads or writes. What a client
/// sees of a broker that is stuck, or of another service on the broker's port.
public final class SilentListener {
    public let port: Int
    private let descriptor: Int32

    public init() throws {
        let listening = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listening >= 0 else { throw TestBrokerError("socket: \(SystemError(errno))") }
        var address = loopbackAddress(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(listening, socketAddress, length) == 0 && getsockname(listening, socketAddress, &length) == 0
            }
        }
        guard bound, listen(listening, 64) == 0 else {
            close(listening)
            throw TestBrokerError("bind or listen: \(SystemError(errno))")
        }
        descriptor = listening
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
