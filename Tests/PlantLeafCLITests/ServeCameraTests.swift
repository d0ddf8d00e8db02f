import Foundation
import Glibc
import PlantLeafCore
import PlantLeafTestSupport
import Synchronization
import Testing

/// `plantleaf serve --input`: the camera monitor beside the server, its readings at /api/latest,
/// its frame at /snapshot.jpg and /stream.mjpg (the same bytes for every viewer: encoded once),
/// and the history of its --log file.
@Suite struct ServeCameraTests {
    static let leaves = [TestPaths.appleScabLeaf, TestPaths.healthyTomatoLeaf, TestPaths.appleScabLeaf]

    /// Three leaves back to back as a motion-JPEG file: read whole, then the stream ends and the
    /// server keeps its last reading.
    static func streamFile(in folder: String) throws -> String {
        var bytes: [UInt8] = []
        for leaf in leaves { bytes += Array(try Data(contentsOf: URL(fileURLWithPath: leaf))) }
        let path = folder + "/leaves.mjpg"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func waitForCamera(_ server: TestServer, state: String) throws {
        for _ in 0..<600 {
            let health = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/api/health"))
            if health.text == "{\"status\": \"ok\", \"camera\": \"\(state)\"}\n" { return }
            usleep(100_000)
        }
        Issue.record("the camera never reached '\(state)': \(server.stderr)")
    }

    @Test func liveRoutesShowTheNewestReading() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let log = folder + "/readings.jsonl"
        let server = try TestServer(["--jobs", "1", "--input", try Self.streamFile(in: folder), "--log", log, "--journal", folder + "/journal.sqlite"])
        try Self.waitForCamera(server, state: "ended")
        // The frames come faster than they are read: the newest is read each time, so one to three.
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect((1...3).contains(lines.count))
        let latest = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/api/latest"))
        #expect(latest.status == 200 && latest.headers["content-type"] == "application/json")
        #expect(latest.text == (lines.last ?? "") + "\n")
        #expect(jsonObject(latest.text)?["verdict"] as? String == "diagnosis")
        // The advice is for whoever watches a fixed camera: walk to the plant, not photograph it.
        let best = try #require((jsonObject(latest.text)?["top"] as? [[String: Any]])?.first?["label"] as? String)
        #expect(jsonObject(latest.text)?["advice"] as? String == Catalogue.english.diagnosisAdvice(best, for: .camera))
        // The camera's record, in the one shape every record has.
        #expect(jsonObject(latest.text)?["schema"] as? Int == 2)
        #expect((jsonObject(latest.text)?["timing_ms"] as? [String: Double]).map { Set($0.keys) } == ["prepare", "invoke", "generalist"])
        #expect(jsonObject(latest.text)?["leaf_likeness"] is Double)

        let snapshot = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/snapshot.jpg"))
        #expect(snapshot.status == 200 && snapshot.headers["content-type"] == "image/jpeg")
        let image = try ImageDecoder().decode(snapshot.body)
        #expect(image.width == 224 && image.height == 224)

        // Three viewers: each gets the frame as one multipart part, byte for byte the snapshot.
        for viewer in 1...3 {
            let stream = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/stream.mjpg"), timeout: 2)
            #expect(stream.status == 200)
            #expect(stream.headers["content-type"] == "multipart/x-mixed-replace; boundary=plantleaf-frame")
            let head = Array("--plantleaf-frame\r\nContent-Type: image/jpeg\r\nContent-Length: \(snapshot.body.count)\r\n\r\n".utf8)
            #expect(Array(stream.body.prefix(head.count)) == head, "viewer \(viewer): \(String(decoding: stream.body.prefix(80), as: UTF8.self))")
            #expect(Array(stream.body.dropFirst(head.count).prefix(snapshot.body.count)) == snapshot.body, "viewer \(viewer)")
        }

        let page = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/live"))
        #expect(page.status == 200 && page.text.contains("<img id=\"frame\" src=\"/stream.mjpg\""))
        // The history from the journal: the log's readings, each with its source.
        let history = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/api/history"))
        #expect(history.status == 200)
        let readings = try #require(jsonObject(history.text)?["readings"] as? [[String: Any]])
        #expect(readings.map { $0["time"] as? String } == lines.map { jsonObject($0)?["time"] as? String }, "\(history.text)")
        // The camera's name, without --name: its stream's file name, on the live page too.
        #expect(readings.allSatisfy { $0["source"] as? String == "leaves.mjpg" }, "\(history.text)")
        #expect(page.text.contains("<h2 class=\"camera-name\" dir=\"auto\">leaves.mjpg</h2>"))
        let chart = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/history"))
        #expect(chart.status == 200 && chart.text.contains("<table id=\"readings\">"))
        let metrics = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/metrics"))
        let counted = metrics.text.split(separator: "\n").filter { $0.hasPrefix("plantleaf_camera_readings_total{") }
            .compactMap { Int($0.split(separator: " ").last ?? "") }.reduce(0, +)
        #expect(counted == lines.count, "\(metrics.text)")
        #expect(metrics.text.contains("plantleaf_camera_frame_age_seconds_count \(lines.count)\n"), "\(metrics.text)")
        #expect(server.stderr(containing: "frames read").contains("plantleaf serve: 3 frames read, \(lines.count) classified"), "\(server.stderr)")
    }

    @Test func withoutACameraTheLiveRoutesSaySo() throws {
        // Without a journal there is no history, and the answer says how a camera's --log becomes one.
        let server = try TestServer(["--jobs", "1", "--no-journal"])
        let message = #"{"error": "no camera: this server was started without --device or --input"}"# + "\n"
        for target in ["/live", "/api/latest", "/snapshot.jpg", "/stream.mjpg"] {
            let response = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", target))
            #expect(response.status == 404 && response.text == message, "\(target): \(response.text)")
        }
        let history = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/api/history"))
        #expect(history.status == 404)
        #expect(history.text == #"{"error": "no history: it comes from the journal only, which --no-journal turns off; "#
                + #"to see a camera's --log there, run plantleaf journal import LOG.jsonl, then serve with --journal FILE"}"# + "\n")
    }

    /// A camera's --log was once serve's history without a journal: given both, serve says at
    /// its start what to do instead (here before the missing model ends it).
    @Test func aLogWithoutJournalSaysHowToSeeItsHistory() throws {
        let result = try runPlantLeaf(["serve", "--input", "-", "--log", "/nonexistent/readings.jsonl", "--no-journal", "--model", "/nonexistent/model.tflite"])
        #expect(result.status == 2)
        #expect(result.stderrLines.first == "plantleaf serve: no history: it comes from the journal only, which --no-journal turns off; "
                + "to see a camera's --log there, run plantleaf journal import LOG.jsonl, then serve with --journal FILE", "\(result.stderr)")
    }

    @Test func cameraOptionsNeedACamera() throws {
        let result = try runPlantLeaf(["serve", "--every", "5m"])
        #expect(result.status == 2)
        #expect(result.stderr == "plantleaf serve: --every is a camera option: give --device PATH or --input FILE|- too (see plantleaf serve --help)\n")
        let range = try runPlantLeaf(["serve", "--input", "-", "--every", "0"])
        #expect(range.status == 2)
        #expect(range.stderrLines.count == 1 && range.stderr.hasPrefix("plantleaf serve: --every must be"), "\(range.stderr)")
    }

    /// A camera that is not there ends serve as it ends camera, before it listens: one line with
    /// the remedy, 2. Under an Arabic locale it is English, as the rest of a server's log (camera
    /// would say it in Arabic).
    @Test func missingCameraIsASetupError() throws {
        let result = try runPlantLeaf(["serve", "--jobs", "1", "--listen", "127.0.0.1:0", "--device", "/dev/plantleaf-no-such-camera"],
                                      environment: ["LC_ALL": "", "LC_MESSAGES": "", "LANG": "ar_EG.UTF-8"], timeLimit: 300)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("plantleaf serve: /dev/plantleaf-no-such-camera: no such device"),
                "\(result.stderr)")
    }

    /// The uploads and the camera share the --jobs instances and their queue. A camera streaming
    /// without end (a leaf every 50 ms on standard input) and eight clients uploading back to back
    /// on one instance: the camera's readings still come, each ahead of the uploads waiting, every
    /// upload is answered (200) or refused with 503 and Retry-After, and the server runs one
    /// model instance, not one more for the camera.
    @Test func cameraReadsOnTheUploadsInstancesAheadOfThem() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let leafPath = folder + "/leaf.jpg"
        let leaf = try ServeHTTPTests.leafBytes()
        try Data(leaf).write(to: URL(fileURLWithPath: leafPath))
        let server = try TestServer(["--jobs", "1", "--input", "-", "--no-journal"], input: "while cat '\(leafPath)'; do sleep 0.05; done")
        try Self.waitForCamera(server, state: "running")
        let port = server.port
        @Sendable func metric(_ name: String) throws -> Int {
            let text = try RawHTTP.exchange(port: port, RawHTTP.request("GET", "/metrics")).text
            return text.split(separator: "\n").filter { $0.hasPrefix(name + " ") || $0.hasPrefix(name + "{") }
                .compactMap { Int($0.split(separator: " ").last ?? "") }.reduce(0, +)
        }
        #expect(try metric("plantleaf_model_instances") == 1)
        let readingsBefore = try metric("plantleaf_camera_readings_total")
        let answers = Mutex<[(status: Int, retryAfter: String?)]>([])
        let readingsDuringBurst = Mutex(0)
        // Until the camera has read five more frames, or five minutes whatever it did (a bound for
        // a hung server, not a speed: under qemu-user a reading takes most of a second, and a
        // refused upload a millisecond). A refused client pauses a little, as a phone would. A
        // queued upload waits behind every camera reading, which under qemu-user on a busy
        // machine has taken over the usual minute: each client waits as long as the whole burst.
        let giveUp = ContinuousClock.now + .seconds(300)
        ServeHostileTests.inParallel(8) { _ in
            while ContinuousClock.now < giveUp && readingsDuringBurst.withLock({ $0 }) < 5 {
                let response = try? RawHTTP.exchange(port: port, RawHTTP.request("POST", "/api/classify", headers: ["Content-Type: image/jpeg"], body: leaf),
                                                     timeout: 300)
                answers.withLock { $0.append((response?.status ?? 0, response?.headers["retry-after"])) }
                if response?.status == 503 { usleep(50_000) }
                let readings = (try? metric("plantleaf_camera_readings_total")) ?? readingsBefore
                readingsDuringBurst.withLock { $0 = max($0, readings - readingsBefore) }
            }
        }
        let statuses = answers.withLock { $0.map(\.status) }
        print("\(statuses.count) uploads beside the camera: \(statuses.filter { $0 == 200 }.count) classified, "
            + "\(statuses.filter { $0 == 503 }.count) told to come back; \(readingsDuringBurst.withLock { $0 }) camera readings meanwhile")
        #expect(readingsDuringBurst.withLock { $0 } >= 5)
        #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "\(statuses)")
        #expect(answers.withLock { $0 }.allSatisfy { $0.status == 200 || Int($0.retryAfter ?? "") ?? 0 >= 1 })
        // Every camera reading went through the queue, ahead of it (the readings are counted a
        // moment after their input, so one or two may be in between); every classified upload behind it.
        let metrics = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/metrics")).text
        func value(_ line: String) -> Int? {
            metrics.split(separator: "\n").first { $0.hasPrefix(line + " ") }.flatMap { Int($0.split(separator: " ").last ?? "") }
        }
        let readings = metrics.split(separator: "\n").filter { $0.hasPrefix("plantleaf_camera_readings_total{") }
            .compactMap { Int($0.split(separator: " ").last ?? "") }.reduce(0, +)
        let ahead = value(#"plantleaf_inference_inputs_total{place="ahead"}"#) ?? -1
        #expect(readings > readingsBefore && (readings...readings + 2).contains(ahead), "\(metrics)")
        #expect(value(#"plantleaf_inference_inputs_total{place="behind"}"#) == statuses.filter { $0 == 200 }.count, "\(metrics)")
        #expect(value("plantleaf_model_instances") == 1, "\(metrics)")
    }
}
