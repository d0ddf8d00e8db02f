import Foundation
import PlantLeafCore
import PlantLeafCamera
import PlantLeafMQTT
import PlantLeafJournal
import PlantLeafTestSupport
import Testing

/// `plantleaf camera --mqtt` against a real mosquitto broker each test starts on a free port,
/// with frames from a motion-JPEG stream (no camera needed): what arrives is what stdout says.
@Suite struct CameraMQTTTests {
    static let appleScab = TestPaths.appleScabLeaf

    @Test func everyResultArrivesWithAvailabilityAndDiscovery() throws {
        let broker = try TestBroker()
        let reader = try TopicReader(port: broker.port, topics: ["greenhouse/#", "homeassistant/#"], folder: broker.folder)
        let leaf = try CameraStreamTests.bytes(Self.appleScab)
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let stream = folder + "/three.mjpeg"
        TestImages.write(leaf + leaf + leaf, to: stream)
        // One reading in a row makes an event: the problem sensor then follows each reading.
        let journalPath = folder + "/journal.sqlite"
        let result = try runPlantLeaf(["camera", "--input", stream, "--format", "json", "--mqtt", "mqtt://127.0.0.1:\(broker.port)/greenhouse/bench1",
                                       "--journal", journalPath, "--event-readings", "1"], timeLimit: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderrLines.contains("plantleaf camera: mqtt: connected to 127.0.0.1:\(broker.port)"))
        let (frames, _) = CameraStreamTests.records(result.stdout)
        let published = result.stdoutLines.filter { $0.hasPrefix("{\"schema\": 2, \"frame\"") }
        #expect(!frames.isEmpty && published.count == frames.count)
        for line in published {
            #expect(reader.waitFor { $0 == ReceivedMessage(retained: false, topic: "greenhouse/bench1/result", payload: line) } != nil,
                    "not published: \(line)")
        }
        #expect(reader.waitFor { $0.topic == "greenhouse/bench1/availability" && $0.payload == "online" } != nil)
        #expect(reader.waitFor { $0.topic == "greenhouse/bench1/state" && $0.payload == "Apple — Apple scab" } != nil,
                "the first frame's diagnosis was not shown by name")
        #expect(reader.waitFor { $0.topic == "greenhouse/bench1/availability" && $0.payload == "offline" } != nil,
                "no offline at the end of the run")
        // What a reader that comes later (Home Assistant restarting) gets from the broker.
        let later = try TopicReader(port: broker.port, topics: ["greenhouse/#", "homeassistant/#"], folder: broker.folder)
        #expect(later.waitFor { $0.topic == "greenhouse/bench1/availability" }
            == ReceivedMessage(retained: true, topic: "greenhouse/bench1/availability", payload: "offline"))
        for topic in HomeAssistantDiscovery.configTopics(baseTopic: "greenhouse/bench1") {
            let config = later.waitFor { $0.topic == topic }
            #expect(config?.retained == true, "\(topic): \(later.messages)")
        }
        // The last reading, as Home Assistant shows it: the apple scab leaf read as such, or (the
        // same frame over and over reads as a stalled camera) the verdict that says it is not.
        let lastLine = try #require(published.last)
        let verdict = try #require(jsonObject(lastLine)?["verdict"] as? String)
        let diagnosis = verdict == "diagnosis"
        let state = diagnosis ? "Apple — Apple scab" : String(verdict.map { $0 == "-" ? " " : $0 })
        #expect(later.waitFor { $0.topic == "greenhouse/bench1/state" }
            == ReceivedMessage(retained: true, topic: "greenhouse/bench1/state", payload: state), "\(later.messages)")
        #expect(later.waitFor { $0.topic == "greenhouse/bench1/problem" }
            == ReceivedMessage(retained: true, topic: "greenhouse/bench1/problem", payload: diagnosis ? "ON" : "OFF"))
        let attributesText = try #require(later.waitFor { $0.topic == "greenhouse/bench1/attributes" }?.payload)
        let attributes = try #require(jsonObject(attributesText))
        #expect(attributes["verdict"] as? String == verdict)
        #expect((attributes["top"] as? [[String: Any]])?.count == 3)
        // The generalist check's reading, in the payload and among the attributes alike.
        let likeness = try #require(jsonObject(lastLine)?["leaf_likeness"] as? Double)
        #expect(attributes["leaf_likeness"] as? Double == likeness && likeness > 0.3)
        // The journal tells the same: its last reading is the retained one, its lasting event the problem sensor's.
        let journal = try Journal(path: journalPath, readOnly: true)
        let lastReading = try journal.readings(Journal.Selection()).last
        #expect(lastReading?.record.time == attributes["time"] as? String && lastReading?.record.verdict.rawValue == verdict)
        #expect(try journal.events(Journal.Selection(limit: 1)).first?.state.isProblem == diagnosis)
        later.stop()
        reader.stop()
        // The frame the reading was made from: the model's 224×224 input as JPEG.
        let images = try TopicReader(port: broker.port, topics: ["greenhouse/bench1/image"], folder: broker.folder, hexPayloads: true)
        let image = try #require(images.waitFor { _ in true })
        #expect(image.retained && image.payload.hasPrefix("ffd8"), "\(image.payload.prefix(16))")
        let jpeg = try #require(hexBytes(image.payload))
        let decoded = try ImageDecoder().decode(jpeg)
        #expect(decoded.width == 224 && decoded.height == 224)
        images.stop()
    }

    private func hexBytes(_ hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        return stride(from: 0, to: digits.count, by: 2).compactMap { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16) }
    }

    /// The broker is killed and started again while a camera feeds frames: the run goes on, says
    /// so, and publishing resumes.
    @Test func brokerRestartMidRunResumesPublishing() throws {
        let broker = try TestBroker()
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        // A leaf every 50 ms until the test has seen publishing resume and sends SIGINT: how long
        // the reconnection takes depends on the back-off and on how slowly an emulated broker
        // restarts, so no fixed --duration suits every machine. (In a background pipeline, $! is
        // the pid of its last command, plantleaf.)
        let run = try BackgroundProcess("/bin/bash", ["-c", CameraStreamTests.feeder + #" --mqtt "$1" >"$3/out" 2>"$3/err" & "#
                                                      + #"echo $! >"$3/pid"; wait $!"#,
                                                      TestPaths.binary, "mqtt://127.0.0.1:\(broker.port)/plants", Self.appleScab, folder],
                                        lifetime: 180, output: folder + "/shell")
        var reader = try TopicReader(port: broker.port, topics: ["plants/result"], folder: broker.folder)
        #expect(reader.waitFor(timeout: 12) { _ in true } != nil, "no result before the restart")
        broker.stop()
        reader.stop()
        // Started again once the camera has seen the loss (a restart before that could go unnoticed).
        let lost = "plantleaf camera: mqtt: connection to 127.0.0.1:\(broker.port) lost: "
        #expect(waitUntil(timeout: 60) { ((try? String(contentsOfFile: folder + "/err", encoding: .utf8)) ?? "").contains(lost) },
                "the camera did not see the broker go")
        try broker.start()
        reader = try TopicReader(port: broker.port, topics: ["plants/result"], folder: broker.folder)
        // Reconnection is tried 1, 3, 7, 15 and 31 s after the loss: an emulated broker that took
        // more than 7 s to restart is first reached at 31 s.
        #expect(reader.waitFor(timeout: 45) { _ in true } != nil, "no result after the broker came back: \(broker.log)")
        reader.stop()
        let pidText = try String(contentsOfFile: folder + "/pid", encoding: .utf8)
        let pid = try #require(pid_t(pidText.trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, SIGINT)
        for _ in 0..<300 where run.isRunning { usleep(100_000) }
        #expect(!run.isRunning, "the camera run did not end on SIGINT")
        let errors = (try? String(contentsOfFile: folder + "/err", encoding: .utf8)) ?? ""
        let port = broker.port
        #expect(errors.contains("plantleaf camera: mqtt: connection to 127.0.0.1:\(port) lost: "), "\(errors)")
        #expect(errors.contains(" frames read, "), "no summary line after SIGINT: \(errors)")
        #expect(errors.components(separatedBy: "plantleaf camera: mqtt: connected to 127.0.0.1:\(port)\n").count - 1 == 2, "\(errors)")
    }

    @Test func wrongPasswordIsRefusedInOneLine() throws {
        let broker = try TestBroker(users: ["camera": "right horse battery"])
        let result = try runPlantLeaf(["camera", "--input", Self.appleScab, "--mqtt", "mqtt://camera@127.0.0.1:\(broker.port)/plants"],
                                      environment: [MQTTSettings.passwordVariable: "wrong"], timeLimit: 60)
        #expect(result.status == 2)
        #expect(result.stderr == "plantleaf camera: --mqtt: MQTT broker 127.0.0.1:\(broker.port) refused the connection: not authorised "
            + "(check the user name and password); the user is in the --mqtt URL, the password in PLANTLEAF_MQTT_PASSWORD or --mqtt-password-file\n")
        #expect(result.stdout.isEmpty)
    }

    /// Without a user in the URL, "the user is in the --mqtt URL" would point at nothing.
    @Test func refusalWithoutAUserSaysNoneWasSent() throws {
        let broker = try TestBroker(users: ["camera": "right horse battery"])
        let result = try runPlantLeaf(["camera", "--input", Self.appleScab, "--mqtt", "mqtt://127.0.0.1:\(broker.port)/plants"], timeLimit: 60)
        #expect(result.status == 2)
        #expect(result.stderr == "plantleaf camera: --mqtt: MQTT broker 127.0.0.1:\(broker.port) refused the connection: not authorised "
            + "(check the user name and password); no user name was sent: give one as mqtt://user@host/topic, "
            + "the password in PLANTLEAF_MQTT_PASSWORD or --mqtt-password-file\n")
    }

    @Test func passwordOnTheCommandLineIsRefused() throws {
        let result = try runPlantLeaf(["camera", "--input", Self.appleScab, "--mqtt", "mqtt://camera:secret@127.0.0.1/plants"], timeLimit: 60)
        #expect(result.status == 2)
        #expect(result.stderrLines.count == 1 && !result.stderr.contains("secret"), "\(result.stderr)")
        #expect(result.stderr.hasPrefix("plantleaf camera: --mqtt: MQTT URL 'mqtt://camera:***@127.0.0.1/plants' contains a password"))
    }

    @Test func mqttOptionsNeedTheURL() throws {
        let result = try runPlantLeaf(["camera", "--mqtt-ca", "/etc/ssl/certs/ca-certificates.crt"])
        #expect(result.status == 2)
        #expect(result.stderr == "plantleaf camera: --mqtt-ca goes with --mqtt URL (see plantleaf camera --help)\n")
    }

    /// Home Assistant's view of a named camera in each language, as the broker keeps it: the
    /// device named from the camera, the entity names in the grower's language and the same
    /// object ids in both, the Reading's state in English for automations and the Reading in
    /// words in the grower's language, its attributes without what changes at every reading.
    @Test func homeAssistantSeesTheNamedCameraInTheGrowersLanguage() throws {
        let broker = try TestBroker()
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let stream = folder + "/one.mjpeg"
        TestImages.write(try CameraStreamTests.bytes(CameraStreamTests.appleScab), to: stream)
        let base = "greenhouse/bench2"
        var configs: [String: [[String: Any]]] = [:]
        for language in ["en", "ar"] {
            let result = try runPlantLeaf(["camera", "--input", stream, "--format", "json", "--lang", language, "--name", "Greenhouse 1", "--no-journal",
                                           "--mqtt", "mqtt://127.0.0.1:\(broker.port)/\(base)"], timeLimit: 120)
            #expect(result.status == 0, "\(result.stderr)")
            let firstLine = try #require(result.stdoutLines.first)
            let verdict = try #require(jsonObject(firstLine)?["verdict"] as? String)
            let reader = try TopicReader(port: broker.port, topics: [base + "/#", "homeassistant/#"], folder: broker.folder)
            configs[language] = try HomeAssistantDiscovery.configTopics(baseTopic: base).map { topic in
                try #require(reader.waitFor { $0.topic == topic }.flatMap { jsonObject($0.payload) }, "\(topic): \(reader.messages)")
            }
            let state = reader.waitFor { $0.topic == base + "/state" }?.payload
            let details = try #require(reader.waitFor { $0.topic == base + "/details" }.flatMap { jsonObject($0.payload) })
            #expect(verdict == "diagnosis" && state == "Apple — Apple scab", "\(verdict) \(state ?? "no state")")
            #expect(details["display"] as? String == (language == "ar" ? "تفاح — جرب التفاح" : "Apple — Apple scab"), "\(details)")
            #expect(details["verdict"] as? String == verdict && details["time"] == nil && details["leaf_likeness"] == nil, "\(details)")
            reader.stop()
        }
        let english = try #require(configs["en"]), arabic = try #require(configs["ar"])
        let objectIds = HomeAssistantDiscovery.entityIds(baseTopic: base).map { String($0.drop { $0 != "." }.dropFirst()) }
        #expect(english.map { $0["object_id"] as? String ?? "" } == objectIds && arabic.map { $0["object_id"] as? String ?? "" } == objectIds)
        #expect((english + arabic).allSatisfy { ($0["device"] as? [String: Any])?["name"] as? String == "PlantLeaf Greenhouse 1" })
        #expect(english.map { $0["name"] as? String ?? "" } == ["Reading", "Top score", "Last seen", "Problem", "Frame", "Reading in words"])
        #expect(arabic.map { $0["name"] as? String ?? "" } == ["القراءة", "أعلى درجة", "آخر قراءة", "مشكلة", "الصورة", "القراءة بالكلمات"])
        #expect(english[0]["json_attributes_topic"] as? String == base + "/details")
    }
}

/// Brokers that misbehave: the camera goes on, with bounded memory and CPU.
@Suite struct CameraMQTTHostileBrokerTests {
    /// A broker that sends QoS 2 PUBLISHes it never releases (256 MiB a connection): plantleaf
    /// drops the connection at the first, so its memory stays bounded, and the whole stream is read.
    @Test func unreleasedQoS2PublishesDoNotGrowMemory() throws {
        let broker = try FloodingBroker()
        defer { broker.stop() }
        let leaf = try CameraStreamTests.bytes(CameraMQTTTests.appleScab)
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let stream = folder + "/leaves.mjpeg"
        TestImages.write((0..<40).flatMap { _ in leaf }, to: stream)
        let run = try runPlantLeafMeasured(["camera", "--input", stream, "--format", "json", "--mqtt", "mqtt://127.0.0.1:\(broker.port)/plants"],
                                           timeLimit: 120)
        #expect(run.result.status == 0, "\(run.result.stderr)")
        let (frames, _) = CameraStreamTests.records(run.result.stdout)
        #expect(!frames.isEmpty && run.result.stderr.contains(": 40 frames read, "), "\(run.result.stderr)")
        #expect(run.result.stderr.contains("plantleaf camera: mqtt: 127.0.0.1:\(broker.port) sent a message though plantleaf subscribes to nothing: "
            + "connection dropped; retrying every 1 s, backing off to 60 s"), "\(run.result.stderr)")
        #expect(broker.connections >= 1)
        // A camera run's own peak, with both models and the journal, is well under this (under
        // 100 MiB even under qemu-user); keeping the broker's 256 MiB is far over it.
        if TestPaths.checksFloors { #expect(run.peakResidentKiB < 160 << 10, "peak \(run.peakResidentKiB) KiB") }
    }

    /// mqtts:// to a port nothing listens on: "cannot connect" at once, the 1 s doubling back-off
    /// (no core spinning), and a prompt stop when the stream ends.
    /// A broker that takes the connection and never answers it holds up no reading: the
    /// camera's readings come before the link gives up on the broker, which it says in one line
    /// and retries. A leaf every 50 ms until that line is there (the camera says the link's
    /// changes as it delivers readings).
    @Test func aBrokerThatNeverAnswersHoldsUpNoReading() throws {
        let listener = try SilentListener()
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let script = #"""
            until grep -q "sent no answer" "$3" 2>/dev/null; do cat "$2" || exit; sleep 0.05; done \
                | "$0" camera --input - --format json --no-journal --mqtt "$1" >"$3" 2>&1
            """#
        let result = try runPlantLeafInShell(script, ["mqtt://127.0.0.1:\(listener.port)/plants", CameraMQTTTests.appleScab, folder + "/out"],
                                             timeLimit: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = ((try? String(contentsOfFile: folder + "/out", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        let gaveUp = try #require(lines.firstIndex(of: "plantleaf camera: mqtt: cannot connect to 127.0.0.1:\(listener.port): it took the "
                                                   + "connection but sent no answer in 5 s; retrying every 1 s, backing off to 60 s"), "\(lines)")
        // The start does not wait for an answer that never comes: readings flow meanwhile.
        #expect(lines[..<gaveUp].filter { $0.hasPrefix("{") && $0.contains("\"verdict\": \"diagnosis\"") }.count >= 2, "\(lines)")
        #expect(lines.filter { $0.contains("sent no answer") }.count == 1, "\(lines)")
    }

    @Test func tlsToARefusingPortBacksOffAndSaysSoPromptly() throws {
        let port = try freeLocalPort()
        let script = #"""
            start=$(date +%s.%N)
            TIMEFORMAT='cpu %U %S'
            time ( (cat "$2"; sleep 4) | "$0" camera --input - --format json --mqtt "$1" 2>&1 >/dev/null \
                | while IFS= read -r line; do echo "$(date +%s.%N) $line"; done > "$3" )
            echo "took $start $(date +%s.%N)" >&2
            """#
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let result = try runPlantLeafInShell(script, ["mqtts://127.0.0.1:\(port)/plants", CameraMQTTTests.appleScab, folder + "/lines"],
                                             timeLimit: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = ((try? String(contentsOfFile: folder + "/lines", encoding: .utf8)) ?? "").split(separator: "\n")
        let took = result.stderrLines.first { $0.hasPrefix("took ") }?.split(separator: " ").compactMap { Double($0) } ?? []
        let cpu = result.stderrLines.first { $0.hasPrefix("cpu ") }?.split(separator: " ").compactMap { Double($0) } ?? []
        guard took.count == 2, cpu.count == 2 else {
            Issue.record("no timing: \(result.stderr)")
            return
        }
        let cannotConnect = lines.first { $0.contains("plantleaf camera: mqtt: cannot connect to 127.0.0.1:\(port): connection refused; "
            + "retrying every 1 s, backing off to 60 s") }
        let shownAt = cannotConnect.flatMap { Double($0.split(separator: " ")[0]) }
        #expect(shownAt != nil, "\(lines)")
        if TestPaths.checksFloors {
            #expect(shownAt.map { $0 - took[0] < 5 } == true, "\(lines) from \(took[0])")
            // One reading and the model's set-up, not 4 s of a spinning thread.
            #expect(cpu[0] + cpu[1] < 2.5, "cpu \(cpu)")
            // The stream ends after 4 s; the stop does not wait for the back-off.
            #expect(took[1] - took[0] < 7, "took \(took[1] - took[0]) s")
        }
        #expect(lines.filter { $0.contains("cannot connect") }.count == 1, "\(lines)")
    }
}
