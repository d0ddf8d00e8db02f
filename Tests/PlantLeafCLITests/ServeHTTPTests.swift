import Foundation
import Glibc
import PlantLeafCore
import PlantLeafTestSupport
import Testing

/// `plantleaf serve` over real sockets: every route's status and JSON whole, uploads as the page
/// and curl send them, refusals of what is malformed or too large, the token, and the server
/// still serving after each.
@Suite struct ServeHTTPTests {
    static let leaf = TestPaths.appleScabLeaf

    static func leafBytes() throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: leaf))) }

    /// classify --format json's record for the leaf, without its path and timings (which differ
    /// between two runs), as a dictionary to compare whole.
    static func comparable(_ text: String) throws -> NSDictionary {
        var object = try #require(jsonObject(text.trimmingCharacters(in: .newlines)), "not JSON: \(text)")
        #expect(object["schema"] as? Int == 2)
        #expect(object["timing_ms"] != nil)
        object["timing_ms"] = nil
        object["path"] = nil
        return object as NSDictionary
    }

    static func get(_ server: TestServer, _ target: String, headers: [String] = []) throws -> RawHTTPResponse {
        try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", target, headers: headers))
    }

    static func upload(_ server: TestServer, _ bytes: [UInt8], contentType: String = "image/jpeg", headers: [String] = []) throws -> RawHTTPResponse {
        try RawHTTP.exchange(port: server.port, RawHTTP.request("POST", "/api/classify", headers: ["Content-Type: \(contentType)"] + headers, body: bytes))
    }

    /// The server answers its health check: it survived whatever came before.
    static func expectServing(_ server: TestServer, after what: String) throws {
        let health = try get(server, "/api/health")
        #expect(health.status == 200 && health.text == "{\"status\": \"ok\", \"camera\": \"none\"}\n", "after \(what): \(health.status) \(health.text)")
    }

    @Test func pageAssetsAndHealth() throws {
        let server = try TestServer(["--jobs", "1"])
        let health = try Self.get(server, "/api/health")
        #expect(health.status == 200)
        #expect(health.headers["content-type"] == "application/json")
        #expect(health.text == "{\"status\": \"ok\", \"camera\": \"none\"}\n")
        for (target, type) in [("/", "text/html; charset=utf-8"), ("/app.js", "text/javascript; charset=utf-8"), ("/style.css", "text/css; charset=utf-8")] {
            let response = try Self.get(server, target)
            #expect(response.status == 200, "\(target)")
            #expect(response.headers["content-type"] == type, "\(target)")
            #expect(response.headers["x-content-type-options"] == "nosniff")
            #expect(response.headers["x-frame-options"] == "DENY")
            #expect(response.headers["content-security-policy"]?.hasPrefix("default-src 'none'; script-src 'self'; style-src 'self';") == true)
            // Nothing outside this server: no scheme or protocol-relative address anywhere.
            for outside in ["http:", "https:", "//fonts", "src=\"//", "href=\"//"] {
                #expect(!response.text.contains(outside), "\(target) refers outside: \(outside)")
            }
        }
        let page = try Self.get(server, "/")
        #expect(page.text.contains("<input id=\"photo\" class=\"offscreen\" type=\"file\" accept=\"image/*\" capture=\"environment\">"))
        // The uploads' results are in the journal's history: the photo page leads there, unless
        // the server keeps no journal (its /history is then a 404).
        #expect(page.text.contains("<nav><a id=\"live-link\" href=\"/live\" hidden>Live camera</a><a href=\"/history\">History</a></nav>"))
        let journalless = try TestServer(["--jobs", "1", "--no-journal"])
        #expect(try Self.get(journalless, "/").text.contains("<nav><a id=\"live-link\" href=\"/live\" hidden>Live camera</a></nav>"))
        // The page names its icon, so browsers do not ask for /favicon.ico (a 404 in their console).
        #expect(page.text.contains("<link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\">"))
        let icon = try Self.get(server, "/favicon.svg")
        #expect(icon.status == 200 && icon.headers["content-type"] == "image/svg+xml")
        #expect(icon.headers["content-security-policy"] == page.headers["content-security-policy"])
        #expect(icon.text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 32 32\">") && icon.text.hasSuffix("</svg>\n"))
        let head = try RawHTTP.exchange(port: server.port, RawHTTP.request("HEAD", "/"))
        #expect(head.status == 200 && head.body.isEmpty)
    }

    /// A diagnosis is compared with two sample leaves of its class, served by class and number
    /// from the files listed at start: the installed sample's bytes, nothing for a healthy class
    /// (no disease to compare), another name, a third number or a path.
    @Test func referencePicturesAreTheSampleLeavesOfADisease() throws {
        let server = try TestServer(["--jobs", "1"])
        let folder = TestPaths.plantVillage + "/Tomato___Late_blight"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for number in 0..<2 {
            let picture = try Self.get(server, "/api/reference-picture?class=Tomato___Late_blight&n=\(number)")
            #expect(picture.status == 200 && picture.headers["content-type"] == "image/jpeg")
            // Read outside #expect: Swift 6.0's macro does not take a throwing call.
            let sample = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + files[number])))
            #expect(picture.body == sample, "picture \(number)")
        }
        let page = try Self.get(server, "/")
        #expect(page.text.contains("<script type=\"application/json\" id=\"reference-classes\">[\"Apple___Apple_scab\", \"Apple___Black_rot\""))
        // The correction form lists every class: the data block is what lists the reference pictures.
        let referenceClasses = page.text.firstRange(of: "id=\"reference-classes\">").map { page.text[$0.upperBound...].prefix { $0 != "<" } } ?? ""
        #expect(referenceClasses.contains("\"Tomato___Late_blight\"") && !referenceClasses.contains("\"Tomato___healthy\""), "\(referenceClasses)")
        for target in ["/api/reference-picture?class=Tomato___Late_blight&n=2", "/api/reference-picture?class=Tomato___Late_blight&n=-1",
                       "/api/reference-picture?class=Tomato___Late_blight", "/api/reference-picture?class=Rose___Black_spot&n=0",
                       "/api/reference-picture?class=..%2F..%2Fetc&n=0", "/api/reference-picture?class=Tomato___Late_blight%2F..&n=0"] {
            let refused = try Self.get(server, target)
            #expect(refused.status == 404 && refused.headers["content-type"] == "application/json", "\(target): \(refused.status) \(refused.text)")
        }
    }

    @Test func uploadsGiveClassifysRecord() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let server = try TestServer(["--jobs", "1", "--journal", folder + "/journal.sqlite"])
        let expected = try runPlantLeaf(["classify", "--format", "json", Self.leaf])
        #expect(expected.status == 0)
        let bytes = try Self.leafBytes()
        let raw = try Self.upload(server, bytes)
        #expect(raw.status == 200, "\(raw.text)")
        #expect(raw.headers["content-type"] == "application/json")
        #expect(try Self.comparable(raw.text) == (try Self.comparable(expected.stdout)))
        #expect(jsonObject(raw.text)?["path"] as? String == "upload")
        let form = RawHTTP.form(field: "image", fileName: "leaf one.jpg", bytes)
        let multipart = try RawHTTP.exchange(port: server.port, RawHTTP.request("POST", "/api/classify", headers: [form.header], body: form.body))
        #expect(multipart.status == 200, "\(multipart.text)")
        #expect(try Self.comparable(multipart.text) == (try Self.comparable(expected.stdout)))
        #expect(jsonObject(multipart.text)?["path"] as? String == "leaf one.jpg")
        // The metrics count both, by verdict.
        let metrics = try Self.get(server, "/metrics")
        #expect(metrics.status == 200 && metrics.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        let verdict = try #require(jsonObject(raw.text)?["verdict"] as? String)
        #expect(metrics.text.contains("plantleaf_uploads_classified_total{verdict=\"\(verdict)\"} 2\n"), "\(metrics.text)")
        #expect(metrics.text.contains("plantleaf_classify_seconds_count 2\n"))
        // Without --keep-upload-photos the journal keeps the results only, and the page says so.
        let history = try Self.get(server, "/api/history")
        let readings = try #require(jsonObject(history.text)?["readings"] as? [[String: Any]], "\(history.text)")
        #expect(readings.count == 2 && readings.allSatisfy { $0["picture"] == nil && $0["source"] as? String == "upload" }, "\(history.text)")
        let page = try Self.get(server, "/history")
        #expect(page.text.contains("Uploads keep their result only, never the photo") && !page.text.contains("/api/readings/picture"))
        let noPicture = try Self.get(server, "/api/readings/picture?id=\(readings[0]["id"] as? Int ?? 0)")
        #expect(noPicture.status == 404)
    }

    /// --keep-upload-photos: each upload's row keeps the picture the model read, a small JPEG,
    /// served from the journal; never the uploaded file nor its name.
    @Test func keptUploadPhotosAreTheModelsSmallPicture() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/journal.sqlite"
        let server = try TestServer(["--jobs", "1", "--journal", path, "--keep-upload-photos"])
        let form = RawHTTP.form(field: "image", fileName: "greenhouse-row-7.jpg", try Self.leafBytes())
        let upload = try RawHTTP.exchange(port: server.port, RawHTTP.request("POST", "/api/classify", headers: [form.header], body: form.body))
        #expect(upload.status == 200, "\(upload.text)")
        let history = try Self.get(server, "/api/history")
        let reading = try #require((jsonObject(history.text)?["readings"] as? [[String: Any]])?.first, "\(history.text)")
        let id = try #require(reading["id"] as? Int)
        #expect(reading["picture"] as? String == "/api/readings/picture?id=\(id)")
        let picture = try Self.get(server, "/api/readings/picture?id=\(id)")
        #expect(picture.status == 200 && picture.headers["content-type"] == "image/jpeg")
        #expect(picture.body.count <= 30_000 && picture.body.starts(with: [0xFF, 0xD8]), "\(picture.body.count) bytes")
        let image = try ImageDecoder().decode(picture.body)
        #expect(image.width == 224 && image.height == 224)
        let page = try Self.get(server, "/history?source=upload")
        #expect(page.text.contains("Uploads keep their result and a small copy of the photo") && page.text.contains("<img src=\"/api/readings/picture?id=\(id)\""))
        // The file's name is nowhere in the journal's files.
        let name = Array("greenhouse-row-7".utf8)
        for file in [path, path + "-wal"] {
            let bytes = Array((try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data())
            #expect(!bytes.indices.contains { bytes[$0...].starts(with: name) }, "\(file)")
        }
    }

    /// A phone's photo: 4032x3024, turned by its EXIF orientation. The upload reads as the same
    /// file does with classify.
    @Test func phonePhotoReadsAsTheFileDoes() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let leaf = try ImageDecoder().decode(try Self.leafBytes())
        let large = Resampler.resize(leaf, width: 4032, height: 3024)
        let photo = TestImages.jpeg(large.pixels, width: 4032, height: 3024, quality: 90, exif: TestImages.exif(orientation: 6))
        let path = folder + "/IMG_0001.jpg"
        TestImages.write(photo, to: path)
        let expected = try runPlantLeaf(["classify", "--format", "json", path])
        #expect(expected.status == 0)
        let server = try TestServer(["--jobs", "1"])
        let form = RawHTTP.form(field: "image", fileName: "IMG_0001.jpg", photo)
        let answer = try RawHTTP.exchange(port: server.port, RawHTTP.request("POST", "/api/classify", headers: [form.header], body: form.body))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(try Self.comparable(answer.text) == (try Self.comparable(expected.stdout)))
    }

    @Test func malformedRequestsAreRefusedInJSON() throws {
        let server = try TestServer(["--jobs", "1"])
        let leaf = try Self.leafBytes()
        let form = RawHTTP.form(field: "image", fileName: "a.jpg", Array(leaf.prefix(100)))
        let cases: [(what: String, request: [UInt8], status: Int, json: String)] = [
            ("an unknown page", RawHTTP.request("GET", "/nothing"), 404, #"{"error": "no such page: /nothing"}"#),
            ("a path up and out", RawHTTP.request("GET", "/../etc/passwd"), 404, #"{"error": "no such page: /../etc/passwd"}"#),
            ("an encoded path up and out", RawHTTP.request("GET", "/%2e%2e/%2e%2e/etc/passwd"), 404, #"{"error": "no such page: /../../etc/passwd"}"#),
            ("an asset's path with more after it", RawHTTP.request("GET", "/app.js/../../etc/passwd"), 404,
             #"{"error": "no such page: /app.js/../../etc/passwd"}"#),
            ("an unknown method", RawHTTP.request("DELETE", "/api/classify"), 405, #"{"error": "/api/classify takes POST, not DELETE"}"#),
            ("GET of the upload route", RawHTTP.request("GET", "/api/classify"), 405, #"{"error": "/api/classify takes POST, not GET"}"#),
            ("POST of a page", RawHTTP.request("POST", "/", body: [1]), 405, #"{"error": "/ takes GET or HEAD, not POST"}"#),
            ("a body that is no image", RawHTTP.request("POST", "/api/classify", headers: ["Content-Type: image/jpeg"], body: Array("hello".utf8)), 422,
             #"{"error": "not an image PlantLeaf can read: not a JPEG or PNG photo: this file is text"}"#),
            ("text instead of an image", RawHTTP.request("POST", "/api/classify", headers: ["Content-Type: text/plain"], body: Array("hello".utf8)), 415,
             #"{"error": "send the image as the body (image/jpeg, image/png) or as form field 'image' (multipart/form-data)"}"#),
            ("an empty body", RawHTTP.request("POST", "/api/classify", headers: ["Content-Type: image/jpeg"], body: []), 400, #"{"error": "the image is empty"}"#),
            ("a form without the field", RawHTTP.request("POST", "/api/classify", headers: [RawHTTP.form(field: "photo", fileName: "a.jpg", leaf).header],
                                                         body: RawHTTP.form(field: "photo", fileName: "a.jpg", leaf).body), 400,
             #"{"error": "the form has no field 'image'"}"#),
            ("a form without a boundary", RawHTTP.request("POST", "/api/classify", headers: ["Content-Type: multipart/form-data"], body: leaf), 400,
             #"{"error": "a form without a boundary or with an unknown encoding"}"#),
            ("a form cut short", RawHTTP.request("POST", "/api/classify", headers: [form.header], body: Array(form.body.prefix(form.body.count - 30))), 400,
             #"{"error": "the form ends before its closing boundary"}"#),
            ("a truncated JPEG", RawHTTP.request("POST", "/api/classify", headers: ["Content-Type: image/jpeg"], body: Array(leaf.prefix(leaf.count / 3))), 422, ""),
        ]
        for item in cases {
            let response = try RawHTTP.exchange(port: server.port, item.request)
            #expect(response.status == item.status, "\(item.what): \(response.status) \(response.text)")
            #expect(response.headers["content-type"] == "application/json", "\(item.what)")
            if item.json.isEmpty {
                #expect(response.text.hasPrefix("{\"error\": \"not an image PlantLeaf can read: "), "\(item.what): \(response.text)")
            } else {
                #expect(response.text == item.json + "\n", "\(item.what)")
            }
            try Self.expectServing(server, after: item.what)
        }
        let allow = try RawHTTP.exchange(port: server.port, RawHTTP.request("PUT", "/"))
        #expect(allow.headers["allow"] == "GET, HEAD")
        // A body that stops short of its Content-Length, the client gone: nothing to answer, and
        // the server goes on.
        let socketDescriptor = try RawHTTP.connect(port: server.port)
        RawHTTP.send(socketDescriptor, Array(RawHTTP.request("POST", "/api/classify", headers: ["Content-Type: image/jpeg"], body: leaf).prefix(2000)))
        close(socketDescriptor)
        try Self.expectServing(server, after: "a client gone mid-body")
        // One line on stderr per refusal, with the status and the route.
        #expect(server.stderr.contains("plantleaf serve: 404 GET /../etc/passwd: no such page: /../etc/passwd\n"), "\(server.stderr)")
        #expect(server.stderr.contains("plantleaf serve: 415 POST /api/classify: send the image as the body"))
    }

    /// 100 MB announced: 413 from the head alone, the body never read. 100 MB sent in chunks,
    /// with no length announced: the connection closed once the limit is passed, the rest never read.
    @Test func oversizedUploadsAreRefusedQuickly() throws {
        let server = try TestServer(["--jobs", "1"])
        let socketDescriptor = try RawHTTP.connect(port: server.port)
        defer { close(socketDescriptor) }
        let start = Date()
        let head = "POST /api/classify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\nContent-Length: 100000000\r\n\r\n"
        RawHTTP.send(socketDescriptor, Array(head.utf8))
        let response = try RawHTTP.readResponse(socketDescriptor, timeout: 10)
        #expect(response.status == 413)
        #expect(response.text == #"{"error": "the upload is 100000000 bytes, over the 25 MiB limit"}"# + "\n")
        if TestPaths.checksFloors { #expect(Date().timeIntervalSince(start) < 2) }

        let chunked = try RawHTTP.connect(port: server.port)
        defer { close(chunked) }
        RawHTTP.send(chunked, Array("POST /api/classify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
        let piece = Array("100000\r\n".utf8) + [UInt8](repeating: 0xFF, count: 0x100000) + Array("\r\n".utf8)
        var sent = 0
        // A refused upload stops being read: sending fails or stalls well before 100 MiB.
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(chunked, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        while sent < 100, RawHTTP.send(chunked, piece) { sent += 1 }
        #expect(sent < 100, "all of 100 MiB was read")
        // libmicrohttpd takes no response once a body is under way: the connection is closed
        // with no answer, and the one line on stderr says why.
        #expect((try? RawHTTP.readResponse(chunked, timeout: 10)) == nil)
        let log = server.stderr(containing: "plantleaf serve: 413 POST /api/classify: the body is over")
        #expect(log.contains("plantleaf serve: 413 POST /api/classify: the body is over the 25 MiB limit\n"), "\(log)")
        try Self.expectServing(server, after: "100 MB uploads")
        #expect(!server.stderr.contains("libmicrohttpd"), "\(server.stderr)")
    }

    /// 64 clients trickling requests in, a byte every half second (half of them still on the head,
    /// half on the body): an upload beside them is answered at once, and each of them is dropped
    /// at --request-timeout, however steadily it sends.
    @Test func slowClientsNeitherBlockOthersNorStay() throws {
        let server = try TestServer(["--jobs", "1", "--request-timeout", "4"])
        let head = Array("POST /api/classify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\nContent-Length: 1000\r\n\r\n".utf8)
        var sockets: [Int32] = []
        for index in 0..<64 {
            let socketDescriptor = try RawHTTP.connect(port: server.port)
            // The body half starts with its whole head sent.
            if index % 2 == 1 { RawHTTP.send(socketDescriptor, head) }
            sockets.append(socketDescriptor)
        }
        let slow = sockets
        let trickling = Trickler(sockets: slow) { index, step in index % 2 == 0 ? head[step % head.count] : 0xFF }
        // The thread must be done with the sockets before they are closed: tests run side by side
        // in this process, and a closed number is soon another test's socket.
        defer {
            trickling.stop()
            slow.forEach { close($0) }
        }
        trickling.awaitFirstRound()
        let start = Date()
        let upload = try Self.upload(server, try Self.leafBytes())
        #expect(upload.status == 200)
        if TestPaths.checksFloors { #expect(Date().timeIntervalSince(start) < 2, "an upload beside 64 slow clients took \(Date().timeIntervalSince(start)) s") }
        // Each slow client's socket ends (the server shut it down) within the limit and a little.
        var ended = 0
        for socketDescriptor in slow {
            var descriptor = pollfd(fd: socketDescriptor, events: Int16(POLLIN), revents: 0)
            var byte: UInt8 = 0
            if poll(&descriptor, 1, 10_000) > 0, recv(socketDescriptor, &byte, 1, Int32(MSG_DONTWAIT)) <= 0 { ended += 1 }
        }
        #expect(ended == 64, "\(ended) of 64 slow clients dropped")
        // The drops of one moment are logged one after another: wait for each kind.
        for request in ["a connection", "POST /api/classify"] {
            let line = "plantleaf serve: 408 \(request): dropped: the request was not in within 4 s\n"
            #expect(server.stderr(containing: line).contains(line), "\(server.stderr)")
        }
        try Self.expectServing(server, after: "64 slow clients")
        // Each drop is one line: the library's own report of the socket ending is not repeated.
        #expect(!server.stderr.contains("libmicrohttpd"), "\(server.stderr)")
    }

    /// Four uploads of nearly 25 MiB held open hold 92 MiB of the 100 MiB all bodies may take at
    /// once: a fifth that announces 20 MiB is refused with 503 from its head, one that sends 20 MiB
    /// in chunks is cut off part way, and once the four are gone uploads go through.
    @Test func bodiesHeldAtOnceAreBounded() throws {
        let server = try TestServer(["--jobs", "1"])
        let almostWhole = [UInt8](repeating: 0xAB, count: 23 << 20)
        var holders: [Int32] = []
        for _ in 0..<4 {
            let holder = try RawHTTP.connect(port: server.port)
            let head = "POST /api/classify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\nContent-Length: \(24 << 20)\r\n\r\n"
            RawHTTP.send(holder, Array(head.utf8) + almostWhole)
            holders.append(holder)
        }
        defer { holders.forEach { close($0) } }
        let reason = "uploads in progress already hold 100 MiB: try again in a moment"
        let line = "plantleaf serve: 503 POST /api/classify: \(reason)\n"
        // The four are held once the server has read what their sends left in the sockets: until
        // then an announced fifth is let in, and waits for its body (left open, it holds nothing).
        let announcedHead = RawHTTP.request("POST", "/api/classify", headers: ["Content-Type: image/jpeg", "Content-Length: \(20 << 20)"])
        var admitted: [Int32] = []
        defer { admitted.forEach { close($0) } }
        var announced: RawHTTPResponse?
        for _ in 0..<50 {
            let socketDescriptor = try RawHTTP.connect(port: server.port)
            RawHTTP.send(socketDescriptor, announcedHead)
            guard let response = try? RawHTTP.readResponse(socketDescriptor, timeout: 0.5) else {
                admitted.append(socketDescriptor)
                continue
            }
            close(socketDescriptor)
            announced = response
            break
        }
        #expect(announced?.status == 503)
        #expect(announced?.text == #"{"error": ""# + reason + #""}"# + "\n")
        #expect(announced?.headers["connection"] == "close")
        #expect(server.stderr(containing: line).contains(line))

        let chunked = try RawHTTP.connect(port: server.port)
        defer { close(chunked) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(chunked, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        RawHTTP.send(chunked, Array("POST /api/classify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
        let piece = Array("100000\r\n".utf8) + [UInt8](repeating: 0xCD, count: 0x100000) + Array("\r\n".utf8)
        var sent = 0
        while sent < 20, RawHTTP.send(chunked, piece) { sent += 1 }
        #expect((try? RawHTTP.readResponse(chunked, timeout: 10)) == nil, "a refusal mid-body has no answer")
        let log = server.stderr(containing: line + "plantleaf serve: 503")
        #expect(log.components(separatedBy: line).count == 3, "\(log)")
        holders.forEach { close($0) }
        holders = []
        for _ in 0..<50 {
            if try Self.upload(server, try Self.leafBytes()).status == 200 { break }
            usleep(100_000)
        }
        #expect(try Self.upload(server, try Self.leafBytes()).status == 200, "the budget was not given back")
    }

    @Test func tokenIsNeededWhereItMustBe() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let token = "greenhouse-7c1e-b3f9-token"
        try (token + "\n").write(toFile: folder + "/token", atomically: true, encoding: .utf8)
        let server = try TestServer(["--jobs", "1", "--token-file", folder + "/token"])
        try Self.expectServing(server, after: "start")
        let leaf = try Self.leafBytes()
        let refused = try Self.upload(server, leaf)
        #expect(refused.status == 401)
        #expect(refused.text == #"{"error": "this server needs its token: send Authorization: Bearer TOKEN"}"# + "\n")
        #expect(try Self.upload(server, leaf, headers: ["Authorization: Bearer wrong-token-of-some-length"]).status == 401)
        #expect(try Self.upload(server, leaf, headers: ["Authorization: Bearer \(token)"]).status == 200)
        for target in ["/app.js", "/style.css", "/favicon.svg", "/metrics"] {
            #expect(try Self.get(server, target).status == 401, "\(target)")
            #expect(try Self.get(server, target, headers: ["Authorization: Bearer \(token)"]).status == 200, "\(target)")
        }
        // The page asks for the token, and signing in sets the cookie every route then accepts.
        let signIn = try Self.get(server, "/")
        #expect(signIn.status == 200 && signIn.text.contains("<form method=\"post\" action=\"/sign-in\">"))
        // Its own policy (its inline style's hash changes with the style) is the one docs/serve.md shows.
        let policy = "Content-Security-Policy: " + (signIn.headers["content-security-policy"] ?? "")
        let documented = try String(contentsOfFile: TestPaths.root + "/docs/serve.md", encoding: .utf8)
        #expect(documented.contains("\n" + policy + "\n"), "docs/serve.md does not show \(policy)")
        // The language: the browser's (Accept-Language), unless the switch's cookie chose one; the
        // switch needs no token, as the sign-in page has it too.
        let arabic = try Self.get(server, "/", headers: ["Accept-Language: ar-EG,ar;q=0.9,en;q=0.8"])
        #expect(arabic.status == 200 && arabic.text.contains("<html lang=\"ar\" dir=\"rtl\">"))
        #expect(arabic.text.contains("<label for=\"token\">كلمة المرور لهذا الجهاز</label>"))
        let chosen = try Self.get(server, "/", headers: ["Accept-Language: ar", "Cookie: plantleaf_lang=en"])
        #expect(chosen.text.contains("<html lang=\"en\" dir=\"ltr\">"))
        let switched = try Self.get(server, "/language/ar")
        #expect(switched.status == 303 && switched.headers["location"] == "/")
        #expect(switched.headers["set-cookie"] == "plantleaf_lang=ar; Path=/; SameSite=Strict; Max-Age=31536000")
        let unknown = try Self.get(server, "/language/fr")
        #expect(unknown.status == 404 && unknown.text == #"{"error": "no such language: fr (there are ar, en)"}"# + "\n")
        let wrong = try RawHTTP.exchange(port: server.port, RawHTTP.request("POST", "/sign-in", headers: ["Content-Type: application/x-www-form-urlencoded"],
                                                                            body: Array("token=nope".utf8)))
        #expect(wrong.status == 401 && wrong.text.contains("That is not this server&#39;s password. Try again."))
        let right = try RawHTTP.exchange(port: server.port, RawHTTP.request("POST", "/sign-in", headers: ["Content-Type: application/x-www-form-urlencoded"],
                                                                            body: Array("token=\(token)".utf8)))
        #expect(right.status == 303 && right.headers["location"] == "/")
        let cookie = try #require(right.headers["set-cookie"])
        #expect(cookie == "plantleaf_token_\(server.port)=\(token); Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000")
        let withCookie = "Cookie: plantleaf_token_\(server.port)=\(token)"
        #expect(try Self.get(server, "/", headers: [withCookie]).text.contains("id=\"photo\""))
        #expect(try Self.upload(server, leaf, headers: [withCookie]).status == 200)
        #expect(server.stderr.contains("plantleaf serve: 401 POST /sign-in: wrong token\n"))
    }

    @Test func setupProblemsAreOneLine() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let badListen = try runPlantLeaf(["serve", "--listen", "localhost:80"])
        #expect(badListen.status == 2)
        #expect(badListen.stderr == "plantleaf serve: --listen must be an IP address and a port, as 127.0.0.1:8080, 0.0.0.0:8080 or [::]:8080, "
            + "got 'localhost:80' (see plantleaf serve --help)\n")
        try "short\n".write(toFile: folder + "/token", atomically: true, encoding: .utf8)
        let shortToken = try runPlantLeaf(["serve", "--token-file", folder + "/token"])
        #expect(shortToken.status == 2)
        #expect(shortToken.stderrLines.count == 1)
        #expect(shortToken.stderr.hasPrefix("plantleaf serve: cannot use \(folder)/token as the token file: its first line must be a token of at least 16"))
        let halfTLS = try runPlantLeaf(["serve", "--tls-cert", folder + "/cert.pem"])
        #expect(halfTLS.stderr == "plantleaf serve: --tls-cert and --tls-key go together (see plantleaf serve --help)\n")
        let photosWithoutJournal = try runPlantLeaf(["serve", "--no-journal", "--keep-upload-photos"])
        #expect(photosWithoutJournal.status == 2)
        #expect(photosWithoutJournal.stderr == "plantleaf serve: --keep-upload-photos keeps the photos in the journal: leave out --no-journal "
            + "(see plantleaf serve --help)\n")
        // A port already taken.
        let server = try TestServer(["--jobs", "1"])
        let taken = try runPlantLeaf(["serve", "--jobs", "1", "--listen", "127.0.0.1:\(server.port)"])
        #expect(taken.status == 2)
        #expect(taken.stderrLines.count == 1, "\(taken.stderr)")
        #expect(taken.stderr == "plantleaf serve: cannot listen on 127.0.0.1:\(server.port): the address is already in use "
            + "(another program holds the port: pick another with --listen, or stop it)\n")
    }

    /// Where the loader finds libmicrohttpd, when this test may hide it: as root, a mount namespace
    /// of the test's own lays an empty file over it, which no other process sees.
    static let hideableHTTPLibrary: String? = {
        guard let listing = try? runCommand("/sbin/ldconfig", ["-p"]), listing.status == 0,
              let line = listing.stdout.split(separator: "\n").first(where: { $0.contains("libmicrohttpd.so.12 ") }),
              let arrow = line.range(of: "=> ") else { return nil }
        let library = String(line[arrow.upperBound...])
        let trial = try? runCommand("/usr/bin/unshare", ["-m", "sh", "-c", "mount --bind /dev/null \"$0\"", library])
        return trial?.status == 0 ? library : nil
    }()

    /// A damaged libmicrohttpd is one line saying what to do, exit 2, never a loader crash.
    @Test(.enabled(if: hideableHTTPLibrary != nil, "needs root and unshare(1) to lay an empty file over libmicrohttpd"))
    func damagedHTTPLibraryIsOneLine() throws {
        let library = try #require(Self.hideableHTTPLibrary)
        let result = try runCommand("/usr/bin/unshare", ["-m", "sh", "-c", "mount --bind /dev/null \"$0\" && exec \"$1\" serve --listen 127.0.0.1:0",
                                                         library, TestPaths.binary], timeLimit: 60)
        #expect(result.status == 2)
        #expect(result.stderr == "plantleaf serve: cannot open the HTTP library libmicrohttpd: \(library): file too short: "
            + "install libmicrohttpd12 (sudo apt install libmicrohttpd12, libmicrohttpd12t64 on Debian 13)\n")
    }

    /// systemd stops a service with SIGTERM: the server says so and exits 0.
    @Test func sigtermStopsItCleanly() throws {
        let server = try TestServer(["--jobs", "1"])
        server.stop()
        #expect(!server.isRunning)
        #expect(server.stderr.hasSuffix("plantleaf serve: stopped by SIGTERM\n"), "\(server.stderr)")
    }
}

/// A thread sending one byte to each socket every half second until stopped.
private final class Trickler: @unchecked Sendable {
    private let lock = NSLock()
    private var stopping = false
    private let finished = DispatchSemaphore(value: 0)
    private let firstRoundSent = DispatchSemaphore(value: 0)

    init(sockets: [Int32], byte: @escaping @Sendable (_ socketIndex: Int, _ step: Int) -> UInt8) {
        Thread { [self] in
            var step = 0
            while !isStopping {
                for (index, socketDescriptor) in sockets.enumerated() { RawHTTP.send(socketDescriptor, [byte(index, step)]) }
                if step == 0 { firstRoundSent.signal() }
                step += 1
                usleep(500_000)
            }
            finished.signal()
        }.start()
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    /// Returns once every socket has had its first byte.
    func awaitFirstRound() {
        firstRoundSent.wait()
        firstRoundSent.signal()
    }

    /// Returns once the thread has sent its last byte.
    func stop() {
        lock.withLock { stopping = true }
        finished.wait()
    }
}
