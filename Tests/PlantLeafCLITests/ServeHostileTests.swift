import Foundation
import Glibc
import PlantLeafTestSupport
import Synchronization
import Testing

/// `plantleaf serve` against what a hostile client does before the token and around its
/// requests: large and long forms to the sign-in, many addresses of one machine taking the
/// connections, a flood of lines for the log, a queue of uploads longer than the request limit,
/// a Host from another site, cookies of the same name, SIGHUP, many requests on one connection
/// and several large uploads at once. Each checks behaviour (an answer, a bound on lines or
/// memory), with room for a loaded machine; timings are measured and printed, not asserted tight.
@Suite struct ServeHostileTests {
    static let token = "greenhouse-7c1e-b3f9-token"

    static func tokenServer(_ arguments: [String] = []) throws -> (server: TestServer, folder: String) {
        let folder = TestPaths.temporaryDirectory()
        try (token + "\n").write(toFile: folder + "/token", atomically: true, encoding: .utf8)
        return (try TestServer(["--jobs", "1", "--token-file", folder + "/token"] + arguments), folder)
    }

    /// Runs `body` on `count` threads of its own at once (not a pool's few), and waits for them all.
    static func inParallel(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let done = DispatchSemaphore(value: 0)
        for index in 0..<count {
            Thread {
                body(index)
                done.signal()
            }.start()
        }
        for _ in 0..<count { done.wait() }
    }

    /// The issue's floor after an attack (checked in `make test-perf`): the server's CPU back to
    /// idle within 5 s (a whole second in which it used under 0.05 s of CPU, the first within 5 s
    /// of the attack's end) and its resident memory at most 80 MB. The memory floor is for the
    /// binary as users run it: under AddressSanitizer the resident memory is mostly its shadow
    /// memory and its quarantine of freed blocks, which keep growing with what was allocated, not
    /// with what is held.
    static func expectSettles(_ server: TestServer, _ attack: String) {
        guard TestPaths.checksFloors else { return }
        var idle = false
        let start = Date()
        while !idle, Date().timeIntervalSince(start) < 5 {
            let before = server.cpuSeconds ?? 0
            Thread.sleep(forTimeInterval: 1)
            idle = (server.cpuSeconds ?? 0) - before < 0.05
        }
        #expect(idle, "\(attack): the server still used CPU 5 s after it")
        if !TestPaths.binaryHasSanitizer, let rss = server.status("VmRSS") {
            #expect(rss <= 80_000, "\(attack): RSS \(rss) kB after it")
        }
    }

    static func signInHead(length: Int, extra: [String] = []) -> [UInt8] {
        Array((["POST /sign-in HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/x-www-form-urlencoded",
                "Content-Length: \(length)"] + extra).joined(separator: "\r\n").utf8) + Array("\r\n\r\n".utf8)
    }

    /// A sign-in of 24 MiB is refused from its head (none of it read), one without a length too;
    /// the server's memory stays where it was.
    @Test func signInTakesOnlyASmallForm() throws {
        let (server, folder) = try Self.tokenServer()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let before = server.status("VmRSS") ?? 0
        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        for _ in 0..<4 {
            let socketDescriptor = try RawHTTP.connect(port: server.port)
            sockets.append(socketDescriptor)
            RawHTTP.send(socketDescriptor, Self.signInHead(length: 24 << 20))
            let response = try RawHTTP.readResponse(socketDescriptor, timeout: 10)
            #expect(response.status == 413, "\(response.status) \(response.text)")
            #expect(response.text == #"{"error": "the sign-in form is 25165824 bytes, over its 4096 byte limit"}"# + "\n")
        }
        let chunked = try RawHTTP.exchange(port: server.port, Array(("POST /sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n").utf8), timeout: 10)
        #expect(chunked.status == 411 && chunked.text == #"{"error": "the sign-in form needs a Content-Length"}"# + "\n")
        // The largest form taken, a long token field with fields around it, signs in once it holds the token.
        let padding = String(repeating: "a", count: 3000)
        let form = "user=plantleaf&pad=\(padding)&token=\(Self.token)&more=x"
        let signIn = try RawHTTP.exchange(port: server.port, RawHTTP.request("POST", "/sign-in", headers: ["Content-Type: application/x-www-form-urlencoded"],
                                                                             body: Array(form.utf8)))
        #expect(signIn.status == 303, "\(signIn.status) \(signIn.text)")
        let after = server.status("VmRSS") ?? 0
        print("sign-in: RSS \(before) kB before, \(after) kB after four 24 MiB forms were announced")
        #expect(after - before < 20_000, "RSS grew from \(before) kB to \(after) kB")
        Self.expectSettles(server, "large sign-in forms")
    }

    /// One long value costs time in proportion to its length: `token=` and 8 MiB of `a` to the
    /// sign-in (refused from its head), and a 22 MiB file field of a form, take little of serve's CPU.
    @Test func longFormValuesCostLinearTime() throws {
        let (server, folder) = try Self.tokenServer()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let value = Array("token=".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 8 << 20)
        var cpuBefore = server.cpuSeconds ?? 0
        let signIn = try RawHTTP.exchange(port: server.port, Self.signInHead(length: value.count, extra: ["Connection: close"]) + value)
        #expect(signIn.status == 413)
        let signInCPU = (server.cpuSeconds ?? 0) - cpuBefore
        let leaf = try ServeHTTPTests.leafBytes()
        let form = RawHTTP.form(field: "image", fileName: "long.jpg", leaf + [UInt8](repeating: 0, count: 22 << 20))
        cpuBefore = server.cpuSeconds ?? 0
        let upload = try RawHTTP.exchange(port: server.port, RawHTTP.request("POST", "/api/classify",
                                                                             headers: [form.header, "Authorization: Bearer \(Self.token)"], body: form.body))
        #expect(upload.status == 200)
        let uploadCPU = (server.cpuSeconds ?? 0) - cpuBefore
        print("serve's CPU: \(signInCPU) s for an 8 MiB sign-in value, \(uploadCPU) s for a 22 MiB form field")
        if TestPaths.checksFloors { #expect(signInCPU < 1 && uploadCPU < 3, "\(signInCPU) s, \(uploadCPU) s") }
        Self.expectSettles(server, "long form values")
    }

    /// Three addresses of one machine each try to hold 128 connections, and reconnect: a fourth
    /// address still gets /api/health, and the library's complaint is a few lines, not one per connection.
    @Test func oneMachineCannotTakeEveryConnection() throws {
        let server = try TestServer(["--jobs", "1"])
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        for source in ["127.0.0.2", "127.0.0.3", "127.0.0.4"] {
            for _ in 0..<128 {
                if let socketDescriptor = try? RawHTTP.connect(port: server.port, from: source) {
                    RawHTTP.send(socketDescriptor, Array("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8))
                    held.append(socketDescriptor)
                }
            }
        }
        // Connect and close, as fast as it goes, from the same addresses.
        for index in 0..<3000 {
            if let socketDescriptor = try? RawHTTP.connect(port: server.port, from: "127.0.0.\(2 + index % 3)") { close(socketDescriptor) }
        }
        // The server counts a closed connection free when its thread sees the close: on a loaded
        // machine that is not at once, so the fourth address's first answer is awaited. The held
        // connections stay held.
        /// Whether the fourth address's GET /api/health is answered 200.
        func fourthAddressIsAnswered() -> Bool {
            guard let socketDescriptor = try? RawHTTP.connect(port: server.port, from: "127.0.0.5") else { return false }
            defer { close(socketDescriptor) }
            RawHTTP.send(socketDescriptor, RawHTTP.request("GET", "/api/health"))
            return (try? RawHTTP.readResponse(socketDescriptor, timeout: 10))?.status == 200
        }
        let answered = waitUntil(timeout: 30, fourthAddressIsAnswered)
        #expect(answered, "a fourth address was never answered")
        // Ten more, one after another: each is answered, if need be once the server has seen the
        // previous one close (the reserve is for an address holding next to no connection, and on
        // a loaded machine the close of the one before can still count for a moment).
        var slowest = 0.0
        for _ in 0..<10 {
            let start = Date()
            let answeredAgain = waitUntil(timeout: 10, fourthAddressIsAnswered)
            #expect(answeredAgain, "a fourth address was refused")
            slowest = max(slowest, Date().timeIntervalSince(start))
        }
        print("health from a fourth address beside \(held.count) held connections: slowest of 10 in \(slowest) s")
        let lines = server.stderr.split(separator: "\n").filter { $0.contains("libmicrohttpd") }
        print("\(lines.count) library lines for 3000 refused connections")
        #expect(lines.count <= 40, "\(lines.count) library lines: \(lines.prefix(3))")
        Self.expectSettles(server, "connections from three addresses")
    }

    /// 500 requests for pages that are not there: the log has a few lines of them, and says how
    /// many more there were once the next window has one to show.
    @Test func refusalsCannotFloodTheLog() throws {
        let server = try TestServer(["--jobs", "1"])
        for index in 0..<500 {
            guard (try? ServeHTTPTests.get(server, "/nothing-\(index)"))?.status == 404 else { break }
        }
        let lines = server.stderr.split(separator: "\n").filter { $0.contains(": 404 GET /nothing-") }
        print("\(lines.count) log lines for 500 refusals")
        #expect(lines.count >= 10 && lines.count <= 60, "\(lines.count) lines")
        Self.expectSettles(server, "a flood of refusals")
    }

    /// Thirty uploads at once with one model instance and --request-timeout 1: each waits for the
    /// model longer than the limit, yet every one is answered (classified, or 503 with Retry-After
    /// when the queue is full), none dropped as too slow.
    @Test func waitingForTheModelIsNotTheClientsFault() throws {
        let server = try TestServer(["--jobs", "1", "--request-timeout", "1"])
        let leaf = try ServeHTTPTests.leafBytes()
        let results = Mutex<[(status: Int, retryAfter: String?, text: String)]>([])
        let port = server.port
        Self.inParallel(30) { _ in
            let response = try? RawHTTP.exchange(port: port, RawHTTP.request("POST", "/api/classify", headers: ["Content-Type: image/jpeg"], body: leaf))
            results.withLock { $0.append((response?.status ?? 0, response?.headers["retry-after"], response?.text ?? "")) }
        }
        let answers = results.withLock { $0.map { $0 } }
        let classified = answers.filter { $0.status == 200 }.count
        let busy = answers.filter { $0.status == 503 }
        print("30 uploads at once: \(classified) classified, \(busy.count) told to come back")
        #expect(classified + busy.count == 30, "\(answers.map(\.status))")
        #expect(classified >= 4)
        for response in busy {
            #expect(Int(response.retryAfter ?? "") ?? 0 >= 1, "\(response)")
            #expect(response.text.contains("pictures are being classified or waiting: try again in"), "\(response.text)")
        }
        #expect(!server.stderr.contains("plantleaf serve: 408 "), "\(server.stderr)")
        Self.expectSettles(server, "a queue of uploads")
    }

    /// A Host from another site (a rebinding attack) is refused on every route but the health
    /// check; loopback's names, addresses and --host names are answered.
    @Test func hostFromAnotherSiteIsRefused() throws {
        let server = try TestServer(["--jobs", "1", "--host", "plantleaf.example.org"])
        func get(_ target: String, host: String) throws -> RawHTTPResponse {
            try RawHTTP.exchange(port: server.port, Array("GET \(target) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8))
        }
        for target in ["/", "/metrics", "/api/latest", "/snapshot.jpg"] {
            let refused = try get(target, host: "attacker.example:\(server.port)")
            #expect(refused.status == 421, "\(target): \(refused.status)")
            #expect(refused.text == #"{"error": "this server does not answer for the name in Host: attacker.example:\#(server.port) "#
                + #"(start it with --host NAME to be reached by that name)"}"# + "\n")
        }
        #expect(try get("/api/health", host: "attacker.example").status == 200)
        for host in ["127.0.0.1:\(server.port)", "localhost:\(server.port)", "LOCALHOST.", "[::1]:\(server.port)", "192.168.1.40",
                     "plantleaf.example.org", "PlantLeaf.Example.org.:\(server.port)"] {
            #expect(try get("/metrics", host: host).status == 200, "\(host)")
        }
        // HTTP/1.0 without a Host (no browser sends that) is answered.
        let old = try RawHTTP.exchange(port: server.port, Array("GET /metrics HTTP/1.0\r\n\r\n".utf8))
        #expect(old.status == 200)
        let bad = try runPlantLeaf(["serve", "--host", "bad name"])
        #expect(bad.status == 2 && bad.stderr.contains("--host must be a DNS name"))
    }

    /// The sign-in's cookie is named for the port; of several cookies of that name any one with
    /// the token will do; under HTTPS it is Secure.
    @Test func cookiesArePerPortAnyMatchesAndSecureUnderTLS() throws {
        let (server, folder) = try Self.tokenServer()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let name = "plantleaf_token_\(server.port)"
        for cookie in ["\(name)=zzz; \(name)=\(Self.token)", "\(name)=\(Self.token); \(name)=zzz", "other=1; \(name)=\(Self.token)"] {
            #expect(try ServeHTTPTests.get(server, "/metrics", headers: ["Cookie: \(cookie)"]).status == 200, "\(cookie)")
        }
        #expect(try ServeHTTPTests.get(server, "/metrics", headers: ["Cookie: plantleaf_token=\(Self.token)"]).status == 401)
        #expect(try ServeHTTPTests.get(server, "/metrics", headers: ["Cookie: \(name)=zzz; \(name)=yyy"]).status == 401)

        let made = try runCommand("/usr/bin/openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                                                       "-subj", "/CN=localhost", "-keyout", folder + "/key.pem", "-out", folder + "/cert.pem"])
        try #require(made.status == 0, "\(made.stderr)")
        let tls = try TestServer(["--jobs", "1", "--token-file", folder + "/token", "--tls-cert", folder + "/cert.pem", "--tls-key", folder + "/key.pem"])
        let signIn = try runCommand("/usr/bin/curl", ["-sk", "-D", "-", "-o", "/dev/null", "--data", "token=\(Self.token)",
                                                      "https://127.0.0.1:\(tls.port)/sign-in"])
        let setCookie = signIn.stdout.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") } ?? ""
        #expect(setCookie.hasSuffix("; Secure") && setCookie.contains("plantleaf_token_\(tls.port)="), "\(signIn.stdout)")
    }

    /// SIGHUP, without --log or journal, leaves serve serving and says it was ignored.
    @Test func hangUpDoesNotStopIt() throws {
        let server = try TestServer(["--jobs", "1", "--no-journal"])
        let pid = try #require(server.servePID)
        kill(pid, SIGHUP)
        let line = "plantleaf serve: SIGHUP ignored: there is no --log or journal to reopen\n"
        #expect(server.stderr(containing: line).contains(line), "\(server.stderr)")
        #expect(server.isRunning)
        try ServeHTTPTests.expectServing(server, after: "SIGHUP")
    }

    /// Requests on one connection are answered in order and it stays open between them; after
    /// its share it is closed, and an idle one is closed too.
    @Test func connectionsAreKeptAliveWithinLimits() throws {
        let server = try TestServer(["--jobs", "1"])
        let socketDescriptor = try RawHTTP.connect(port: server.port)
        defer { close(socketDescriptor) }
        let targets = ["/api/health", "/favicon.svg", "/nothing", "/api/health"]
        let pipelined = targets.map { "GET \($0) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" }.joined()
        RawHTTP.send(socketDescriptor, Array(pipelined.utf8))
        // The connection stays open: what came within a few seconds is all there is.
        let answers = String(decoding: RawHTTP.readAll(socketDescriptor, timeout: 3), as: UTF8.self)
        let statuses = answers.components(separatedBy: "HTTP/1.1 ").dropFirst().map { Int($0.prefix(3)) ?? 0 }
        #expect(statuses == [200, 200, 404, 200], "\(answers.prefix(300))")
        #expect(!answers.contains("Connection: close"))
        // Still open: one more on it is answered.
        RawHTTP.send(socketDescriptor, Array("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        #expect((try? RawHTTP.readResponse(socketDescriptor, timeout: 10))?.status == 200)

        // 150 pipelined: 100 answers, the last says close, then the connection ends.
        let many = try RawHTTP.connect(port: server.port)
        defer { close(many) }
        RawHTTP.send(many, Array(String(repeating: "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", count: 150).utf8))
        let all = String(decoding: RawHTTP.readAll(many, timeout: 20), as: UTF8.self)
        #expect(all.components(separatedBy: "HTTP/1.1 200 OK").count - 1 == 100)
        #expect(all.components(separatedBy: "Connection: close").count - 1 == 1)
    }

    /// Four uploads of 22 MiB at once (an image with padding after it): each is answered, and the
    /// server's peak memory stays within the bodies held and one copy of the model's work each.
    @Test func fourLargeUploadsAtOnceStayWithinTheirBudget() throws {
        let server = try TestServer(["--jobs", "1"])
        let leaf = try ServeHTTPTests.leafBytes()
        let upload = leaf + [UInt8](repeating: 0, count: (22 << 20) - leaf.count)
        let form = RawHTTP.form(field: "image", fileName: "big.jpg", upload)
        let before = server.status("VmHWM") ?? 0
        let statuses = Mutex<[Int]>([])
        let port = server.port
        Self.inParallel(4) { index in
            let request = index % 2 == 0 ? RawHTTP.request("POST", "/api/classify", headers: [form.header], body: form.body)
                : RawHTTP.request("POST", "/api/classify", headers: ["Content-Type: image/jpeg"], body: upload)
            let response = try? RawHTTP.exchange(port: port, request)
            statuses.withLock { $0.append(response?.status ?? 0) }
        }
        let peak = server.status("VmHWM") ?? 0
        print("four 22 MiB uploads at once: peak RSS \(before) kB before, \(peak) kB after; answers \(statuses.withLock { $0 })")
        #expect(statuses.withLock { $0 }.allSatisfy { $0 == 200 || $0 == 503 })
        // The bodies are 88 MiB; each kept once (not doubled as it grows) they fit well under this
        // (under AddressSanitizer its shadow memory and quarantine are counted too; see expectSettles).
        if TestPaths.checksFloors && !TestPaths.binaryHasSanitizer { #expect(peak < 160_000, "peak RSS \(peak) kB") }
    }

    /// Viewers of /stream.mjpg that never read are dropped once they have taken nothing for 10 s
    /// (the connection reset, a line in the log), their connections free again: a new viewer
    /// gets frames past the bound, and /api/health answers. Each has a small receive buffer, so
    /// the first frame fills it and the bound counts from the start (with the system's default,
    /// it counts from when that buffer is full).
    @Test func viewersThatNeverReadAreDropped() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let server = try TestServer(["--jobs", "1", "--input", try ServeCameraTests.streamFile(in: folder)])
        try ServeCameraTests.waitForCamera(server, state: "ended")
        let start = Date()
        var viewers: [Int32] = []
        defer { viewers.forEach { close($0) } }
        for _ in 0..<20 {
            let viewer = try RawHTTP.connect(port: server.port, receiveBufferBytes: 4096)
            viewers.append(viewer)
            RawHTTP.send(viewer, RawHTTP.request("GET", "/stream.mjpg"))
        }
        // Seen without reading: the server resets the connection, which poll reports with no events
        // asked for, the data left unread.
        var endedAfter: [Int32: Double] = [:]
        while endedAfter.count < viewers.count, Date().timeIntervalSince(start) < 40 {
            var descriptors = viewers.filter { endedAfter[$0] == nil }.map { pollfd(fd: $0, events: 0, revents: 0) }
            _ = poll(&descriptors, nfds_t(descriptors.count), 250)
            for descriptor in descriptors where descriptor.revents != 0 {
                endedAfter[descriptor.fd] = Date().timeIntervalSince(start)
            }
        }
        let times = endedAfter.values.sorted()
        print("viewers that never read: \(times.count) of \(viewers.count) dropped, after \(times.first ?? 0) to \(times.last ?? 0) s")
        #expect(times.count == viewers.count, "\(server.stderr)")
        #expect(times.allSatisfy { $0 >= 9 }, "dropped before the bound: \(times)")

        // A viewer that reads is kept past the bound: the frame again every 5 s, the connection open.
        let viewer = try RawHTTP.connect(port: server.port)
        defer { close(viewer) }
        RawHTTP.send(viewer, RawHTTP.request("GET", "/stream.mjpg"))
        let watched = RawHTTP.readAll(viewer, timeout: 13)
        let parts = String(decoding: watched, as: UTF8.self).components(separatedBy: "--plantleaf-frame\r\n").count - 1
        #expect(parts >= 3, "\(parts) frames in 13 s")
        var open = pollfd(fd: viewer, events: 0, revents: 0)
        #expect(poll(&open, 1, 0) == 0, "the reading viewer's connection ended")
        let health = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/api/health"), timeout: 10)
        #expect(health.status == 200)
        let lines = server.stderr(containing: "took nothing of the stream")
        #expect(lines.contains("plantleaf serve: 408 GET /stream.mjpg: dropped: the client took nothing of the stream for 10 s"), "\(server.stderr)")
        Self.expectSettles(server, "viewers that never read")
    }
}
