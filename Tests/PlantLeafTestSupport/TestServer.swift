import Foundation
import Glibc

/// `plantleaf serve` started by a test on a port the system picks, stopped (SIGTERM) when the
/// test is done with it; its stderr is kept in `folder` to read.
public final class TestServer {
    public let port: UInt16
    public let folder: String
    private let process: BackgroundProcess

    /// Starts `plantleaf serve --listen 127.0.0.1:0` (or `listen`) with `arguments`, and waits for its
    /// "listening on" line (120 s at most: an emulated aarch64 run loads models slowly).
    /// `input`, a shell command, is piped into the server's standard input (for `--input -`);
    /// without one that is /dev/null. Its stderr goes to the server's log.
    /// `listen` is the address it listens on (port 0: the system's choice): another than loopback
    /// to see what serve refuses there.
    public init(_ arguments: [String] = [], environment: [String: String] = [:], input: String? = nil, listen: String = "127.0.0.1:0") throws {
        folder = TestPaths.temporaryDirectory("serve")
        let log = folder + "/stderr"
        let command = ["env"] + environment.map { "\($0.key)=\($0.value)" } + [TestPaths.binary, "serve", "--listen", listen] + arguments
        if let input {
            // The server's command comes to bash as its arguments, so "$@" keeps each one whole.
            process = try BackgroundProcess("/bin/bash", ["-c", input + #" | exec "$@""#, "bash"] + command, lifetime: 900, output: log)
        } else {
            process = try BackgroundProcess("/usr/bin/env", Array(command.dropFirst()), lifetime: 900, output: log)
        }
        var found: UInt16?
        for _ in 0..<1200 {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            let host = String(listen[..<(listen.lastIndex(of: ":") ?? listen.endIndex)])
            if let range = text.range(of: "listening on http://\(host):") ?? text.range(of: "listening on https://\(host):") {
                found = UInt16(text[range.upperBound...].prefix { $0.isNumber })
                break
            }
            guard process.isRunning else { break }
            usleep(100_000)
        }
        guard let found else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            process.stop()
            throw TestServerError(description: "plantleaf serve did not start: \(text)")
        }
        port = found
    }

    deinit {
        process.stop()
        TestPaths.removeTemporaryDirectory(folder)
    }

    public var isRunning: Bool { process.isRunning }

    /// The server's own process id (the child of the `timeout` that limits its life).
    public var servePID: pid_t? {
        let children = (try? String(contentsOfFile: "/proc/\(process.pid)/task/\(process.pid)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").first.flatMap { pid_t($0) }
    }

    /// A line of the server's /proc/PID/status as a number ("VmRSS", "VmHWM": kB).
    public func status(_ field: String) -> Int? {
        guard let pid = servePID, let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix(field + ":") }
        return line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") }
    }

    /// CPU seconds the server has used so far (user and system).
    public var cpuSeconds: Double? {
        guard let pid = servePID, let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, utime 14 and stime 15 (1-based, man 5 proc).
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// What it wrote to stderr so far.
    public var stderr: String { (try? String(contentsOfFile: folder + "/stderr", encoding: .utf8)) ?? "" }

    /// Its stderr once it holds `text` (lines written just after a socket closed may lag a little),
    /// or after 10 s whatever it holds then.
    public func stderr(containing text: String) -> String {
        for _ in 0..<100 {
            let log = stderr
            if log.contains(text) { return log }
            usleep(100_000)
        }
        return stderr
    }

    /// Whether its stderr holds every one of `texts` within `timeout` seconds; true as soon as it does.
    public func waitForStderr(containing texts: [String], timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            let log = stderr
            if texts.allSatisfy(log.contains) { return true }
            usleep(100_000)
        } while Date() < deadline
        return false
    }

    /// Stops it as systemd would (SIGTERM) and waits for it to end.
    public func stop() { process.stop() }
}

public struct TestServerError: Error, CustomStringConvertible {
    public var description: String
}

/// A response as read off the socket.
public struct RawHTTPResponse {
    public var status: Int
    /// Header names lower-cased.
    public var headers: [String: String]
    public var body: [UInt8]
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// HTTP by hand over a socket, so a test sends exactly the bytes it means (a path the client
/// would tidy, a body that stops short, a byte a second) and sees exactly what came back.
public enum RawHTTP {
    /// A connected TCP socket to 127.0.0.1:port, from `source` (another loopback address,
    /// 127.0.0.2 say, to be another client) when given, with a receive buffer of about
    /// `receiveBufferBytes` when given (set before connecting, as the window is agreed then).
    public static func connect(port: UInt16, from source: String? = nil, receiveBufferBytes: Int32? = nil) throws -> Int32 {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw TestServerError(description: "socket: \(String(cString: strerror(errno)))") }
        if var size = receiveBufferBytes {
            _ = setsockopt(socketDescriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let reason = String(cString: strerror(errno))
                close(socketDescriptor)
                throw TestServerError(description: "bind to \(source): \(reason)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(socketDescriptor)
            throw TestServerError(description: "connect to port \(port): \(reason)")
        }
        return socketDescriptor
    }

    /// Writes all of `bytes`; false when the peer closed first.
    @discardableResult
    public static func send(_ socketDescriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(socketDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    /// Reads until the server closes the connection or `timeout` seconds pass, and parses it.
    public static func readResponse(_ socketDescriptor: Int32, timeout: Double) throws -> RawHTTPResponse {
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            var descriptor = pollfd(fd: socketDescriptor, events: Int16(POLLIN), revents: 0)
            let waited = poll(&descriptor, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000)))
            if waited <= 0 { break }
            let count = recv(socketDescriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
            if let response = parse(received), response.complete { return response.response }
        }
        guard let response = parse(received) else {
            throw TestServerError(description: "no whole response within \(timeout) s: \(String(decoding: received.prefix(300), as: UTF8.self).debugDescription)")
        }
        return response.response
    }

    /// Everything the server sends until it closes the connection or `timeout` seconds pass.
    public static func readAll(_ socketDescriptor: Int32, timeout: Double) -> [UInt8] {
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            var descriptor = pollfd(fd: socketDescriptor, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000))) <= 0 { break }
            let count = recv(socketDescriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return received
    }

    /// One request on a connection of its own (Connection: close), its response read whole.
    public static func exchange(port: UInt16, _ request: [UInt8], timeout: Double = 60) throws -> RawHTTPResponse {
        let socketDescriptor = try connect(port: port)
        defer { close(socketDescriptor) }
        send(socketDescriptor, request)
        return try readResponse(socketDescriptor, timeout: timeout)
    }

    /// A request with `Connection: close` and, with a body, its Content-Length.
    public static func request(_ method: String, _ target: String, headers: [String] = [], body: [UInt8]? = nil) -> [UInt8] {
        var lines = ["\(method) \(target) HTTP/1.1", "Host: 127.0.0.1", "Connection: close"] + headers
        if let body { lines.append("Content-Length: \(body.count)") }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + (body ?? [])
    }

    /// A multipart/form-data body with one file field, and its Content-Type header.
    public static func form(field: String, fileName: String, _ bytes: [UInt8]) -> (header: String, body: [UInt8]) {
        let boundary = "plantleaf-test-boundary-7d1f"
        let head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"; filename=\"\(fileName)\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n"
        return ("Content-Type: multipart/form-data; boundary=\(boundary)", Array(head.utf8) + bytes + Array("\r\n--\(boundary)--\r\n".utf8))
    }

    private static func parse(_ bytes: [UInt8]) -> (response: RawHTTPResponse, complete: Bool)? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else { return nil }
        let head = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(bytes[(end + 4)...])
        if headers["transfer-encoding"] == "chunked" { body = dechunked(body) }
        let complete = headers["content-length"].flatMap(Int.init).map { body.count >= $0 } ?? false
        return (RawHTTPResponse(status: status, headers: headers, body: body), complete)
    }

    /// The data of a chunked body (RFC 9112, section 7.1), as far as it has arrived.
    private static func dechunked(_ bytes: [UInt8]) -> [UInt8] {
        var data: [UInt8] = []
        var index = 0
        while let lineEnd = (index..<max(index, bytes.count - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }),
              let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? "", radix: 16), size > 0 {
            let start = lineEnd + 2
            data += bytes[start..<min(bytes.count, start + size)]
            index = start + size + 2
            guard index < bytes.count else { break }
        }
        return data
    }
}
