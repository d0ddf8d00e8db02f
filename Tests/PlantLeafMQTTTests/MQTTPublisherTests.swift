import Foundation
import PlantLeafCore
@testable import PlantLeafMQTT
import PlantLeafTestSupport
import Testing

/// A reading as the camera command records it: frame number, time (a minute a frame, so the
/// retained attributes say which reading they are), verdict, top classes, stages.
private func record(frame: Int, verdict: Verdict = .diagnosis, top: [ScoredClass] = earlyBlightTop) -> ReadingRecord {
    ReadingRecord(frame: frame, time: time(frame: frame), verdict: verdict, top: top,
                  timings: ReadingRecord.Timings(prepare: 2.5, invoke: 11.5))
}

private func time(frame: Int) -> String { "2026-12-02T10:\(frame < 10 ? "0" : "")\(frame):00+01:00" }

/// What the result topic carries for frame `frame`: its record's JSON line.
private func resultJSON(frame: Int) -> String { record(frame: frame).json }

private let earlyBlightTop = [ScoredClass(index: 29, label: "Tomato___Early_blight", score: 0.93),
                              ScoredClass(index: 37, label: "Tomato___healthy", score: 0.05),
                              ScoredClass(index: 28, label: "Tomato___Bacterial_spot", score: 0.01),
                              ScoredClass(index: 30, label: "Tomato___Late_blight", score: 0.005)]

/// The reading the camera command would publish for `record(frame:)`.
private func reading(frame: Int, verdict: Verdict = .diagnosis, top: [ScoredClass] = earlyBlightTop,
                     frameJPEG: [UInt8]? = nil) -> MQTTReading {
    MQTTReading(record: record(frame: frame, verdict: verdict, top: top), frameJPEG: frameJPEG)
}

/// Against a real mosquitto broker started by each test; `mosquitto_sub` reads what arrives. The
/// tests wait for events (a message arrives, the link reports a change), never a fixed time; what
/// the link does at each moment (back-off, the newest-reading slot, closing) is MQTTLinkTests'.
@Suite struct MQTTPublisherTests {
    static let version = "0.0-test"

    @Test func publishesResultsAvailabilityAndDiscovery() throws {
        let broker = try TestBroker()
        let settings = try MQTTSettings(url: "mqtt://127.0.0.1:\(broker.port)/greenhouse/bench1", environment: [:])
        let publisher = try MQTTPublisher(settings: settings, softwareVersion: MQTTPublisherTests.version)
        #expect(publisher.isConnected)
        #expect(publisher.takeEvents() == [.connected(broker: "127.0.0.1:\(broker.port)")])

        // The publisher sends its discovery as it connects; a subscriber that joins while those
        // are still on their way gets some live, not retained. So a first reader waits until the
        // broker has passed on the last of them; what the next one gets is what was left retained.
        let settling = try TopicReader(port: broker.port, topics: ["homeassistant/#"], folder: broker.folder)
        let lastTopic = publisher.discovery.messages.last?.topic
        #expect(settling.waitFor { $0.topic == lastTopic } != nil, "\(broker.log)")
        settling.stop()
        let reader = try TopicReader(port: broker.port, topics: ["greenhouse/bench1/#", "homeassistant/#"], folder: broker.folder)
        let online = reader.waitFor { $0.topic == settings.availabilityTopic }
        #expect(online == ReceivedMessage(retained: true, topic: "greenhouse/bench1/availability", payload: "online"), "\(broker.log)")
        for message in publisher.discovery.messages {
            let received = reader.waitFor { $0.topic == message.topic }
            #expect(received == ReceivedMessage(retained: true, topic: message.topic, payload: message.payload))
        }

        publisher.publish(reading(frame: 1))
        publisher.publish(reading(frame: 2))
        let second = reader.waitFor { $0.payload == resultJSON(frame: 2) }
        #expect(second == ReceivedMessage(retained: false, topic: "greenhouse/bench1/result", payload: resultJSON(frame: 2)))
        #expect(reader.messages.filter { $0.topic == settings.resultTopic }.map(\.payload).allSatisfy {
            $0 == resultJSON(frame: 1) || $0 == resultJSON(frame: 2)
        })

        publisher.close()
        #expect(!publisher.isConnected)
        #expect(reader.waitFor { $0.topic == settings.availabilityTopic && $0.payload == "offline" } != nil)
    }

    /// What Home Assistant reads: the readable state, the problem sensor, the attributes and the
    /// frame, all retained, so a subscriber that comes after the reading (a restarted Home
    /// Assistant) still gets the last one.
    @Test func homeAssistantGetsTheReadableStateProblemAttributesAndFrameRetained() throws {
        let broker = try TestBroker()
        let settings = try MQTTSettings(url: "mqtt://127.0.0.1:\(broker.port)/greenhouse/bench1", environment: [:])
        let publisher = try MQTTPublisher(settings: settings, softwareVersion: MQTTPublisherTests.version)
        let reader = try TopicReader(port: broker.port, topics: ["greenhouse/bench1/#"], folder: broker.folder)
        let images = try TopicReader(port: broker.port, topics: [settings.imageTopic], folder: broker.folder, hexPayloads: true)
        #expect(reader.waitFor { $0.topic == settings.availabilityTopic } != nil, "\(broker.log)")
        let green = RGBImage(width: 224, height: 224, pixels: [UInt8]((0..<224 * 224).flatMap { _ in [40, 160, 60] }))
        let jpeg = try JPEGEncoder.encode(green)
        publisher.publish(reading(frame: 1, frameJPEG: jpeg))

        #expect(reader.waitFor { $0.topic == settings.stateTopic }
            == ReceivedMessage(retained: false, topic: "greenhouse/bench1/state", payload: "Tomato — Early blight"), "\(reader.messages)")
        #expect(reader.waitFor { $0.topic == settings.problemTopic }?.payload == "ON")
        #expect(reader.waitFor { $0.topic == settings.resultTopic }?.payload == resultJSON(frame: 1))
        let attributesText = try #require(reader.waitFor { $0.topic == settings.attributesTopic }?.payload)
        let attributes = try #require(jsonObject(attributesText), "\(attributesText)")
        #expect(attributes["verdict"] as? String == "diagnosis")
        #expect(attributes["time"] as? String == "2026-12-02T10:01:00+01:00")
        let top = try #require(attributes["top"] as? [[String: Any]], "\(attributesText)")
        #expect(top.map { $0["name"] as? String } == ["Tomato — Early blight", "Tomato — healthy", "Tomato — Bacterial spot"])
        #expect(top.map { $0["label"] as? String } == ["Tomato___Early_blight", "Tomato___healthy", "Tomato___Bacterial_spot"])
        #expect(top.map { $0["score"] as? Double } == [0.93, 0.05, 0.01])
        let image = try #require(images.waitFor { $0.topic == settings.imageTopic }?.payload)
        #expect(image.hasPrefix("ffd8") && image == jpeg.map { String(format: "%02x", $0) }.joined(), "\(image.prefix(16))")

        // Not a diagnosis: the state says so and the problem sensor is off, whatever the top class.
        publisher.publish(reading(frame: 2, verdict: .noPicture))
        #expect(reader.waitFor { $0.topic == settings.stateTopic && $0.payload == "no picture" } != nil, "\(reader.messages)")
        #expect(reader.waitFor { $0.topic == settings.problemTopic && $0.payload == "OFF" } != nil)
        #expect(reader.waitFor { $0.topic == settings.attributesTopic && $0.payload.contains(time(frame: 2)) } != nil)

        let later = try TopicReader(port: broker.port, topics: ["greenhouse/bench1/#"], folder: broker.folder)
        #expect(later.waitFor { $0.topic == settings.stateTopic }
            == ReceivedMessage(retained: true, topic: "greenhouse/bench1/state", payload: "no picture"), "\(later.messages)")
        #expect(later.waitFor { $0.topic == settings.problemTopic } == ReceivedMessage(retained: true, topic: "greenhouse/bench1/problem", payload: "OFF"))
        #expect(later.waitFor { $0.topic == settings.attributesTopic }?.retained == true)
        #expect(later.waitFor { $0.topic == settings.imageTopic }?.retained == true, "the last frame is kept for a later subscriber")
        // The raw result is a stream of events, not a state: not retained.
        #expect(!later.messages.contains { $0.topic == settings.resultTopic })
        later.stop()
        images.stop()
        reader.stop()
        publisher.close()
    }

    @Test func resumesAfterTheBrokerRestartsWithOnlyTheNewestResult() throws {
        let broker = try TestBroker()
        let settings = try MQTTSettings(url: "mqtt://127.0.0.1:\(broker.port)/plants", environment: [:])
        let publisher = try MQTTPublisher(settings: settings, softwareVersion: MQTTPublisherTests.version)
        var reader = try TopicReader(port: broker.port, topics: ["plants/#"], folder: broker.folder)
        #expect(reader.waitFor { $0.payload == "online" } != nil)
        publisher.publish(reading(frame: 1))
        #expect(reader.waitFor { $0.payload == resultJSON(frame: 1) } != nil)

        broker.stop()
        reader.stop()
        var events = Self.events(of: publisher, until: Self.isLoss)
        #expect(events.count == 2 && events.last.map(Self.isLoss) == true, "the publisher did not notice the broker went away: \(events)")
        #expect(!publisher.isConnected)
        let lost = Date()
        // While the broker is away: ten results, of which only the last should ever be sent.
        for frame in 2...11 { publisher.publish(reading(frame: frame)) }
        if TestPaths.checksFloors { #expect(Date().timeIntervalSince(lost) < 0.5, "publish waited for the network") }
        try broker.start()
        let back = publisher.takeEvents(waitingUpTo: 20)
        #expect(back == [.connected(broker: "127.0.0.1:\(broker.port)")], "\(broker.log)")
        events += back
        #expect(publisher.isConnected)
        // The result topic is not retained: what the restarted broker passed on is in its log, and
        // the reading that went is told by the retained attributes a new reader gets at once.
        reader = try TopicReader(port: broker.port, topics: ["plants/#"], folder: broker.folder)
        let attributes = reader.waitFor { $0.topic == settings.attributesTopic }
        #expect(attributes?.retained == true && attributes?.payload.contains(time(frame: 11)) == true, "\(reader.messages)")
        // The restarted broker kept nothing: `online` is there because the publisher sent it again.
        #expect(reader.waitFor { $0.topic == "plants/availability" && $0.payload == "online" } != nil)

        publisher.publish(reading(frame: 12))
        #expect(reader.waitFor { $0.payload == resultJSON(frame: 12) } != nil)
        let sinceRestart = broker.log.components(separatedBy: " starting").last ?? ""
        let results = sinceRestart.components(separatedBy: "\n").filter { $0.contains("Received PUBLISH") && $0.contains("'plants/result'") }
        #expect(results.count == 2, "older results were sent, or the newest was not: \(results)")
        events += publisher.takeEvents()
        #expect(events.count == 3, "\(events)")
        #expect(events.first == .connected(broker: "127.0.0.1:\(broker.port)"))
        #expect(events.last == .connected(broker: "127.0.0.1:\(broker.port)"))
        publisher.close()
    }

    @Test func aBrokerNotUpYetIsRetriedInTheBackground() throws {
        let broker = try TestBroker()
        broker.stop()
        let settings = try MQTTSettings(url: "mqtt://127.0.0.1:\(broker.port)/plants", environment: [:])
        let publisher = try MQTTPublisher(settings: settings, softwareVersion: MQTTPublisherTests.version, connectTimeout: 0.5)
        #expect(!publisher.isConnected)
        let events = publisher.takeEvents()
        #expect(events == [.cannotConnect(broker: "127.0.0.1:\(broker.port)", reason: "connection refused")], "\(events)")
        publisher.publish(reading(frame: 1))
        try broker.start()
        #expect(publisher.takeEvents(waitingUpTo: 20) == [.connected(broker: "127.0.0.1:\(broker.port)")], "no connection after the broker started")
        #expect(publisher.isConnected)
        publisher.close()
    }

    @Test func wrongPasswordIsRefusedAndTheRightOneAccepted() throws {
        let broker = try TestBroker(users: ["camera": "right horse battery"])
        let url = "mqtt://camera@127.0.0.1:\(broker.port)/plants"
        let wrong = try MQTTSettings(url: url, environment: [MQTTSettings.passwordVariable: "wrong"])
        var refusal: MQTTError?
        do {
            _ = try MQTTPublisher(settings: wrong, softwareVersion: MQTTPublisherTests.version)
        } catch {
            refusal = error
        }
        #expect(refusal == .refused(broker: "127.0.0.1:\(broker.port)", user: "camera", reason: "not authorised (check the user name and password)"),
                "\(broker.log)")
        #expect(refusal?.description == "MQTT broker 127.0.0.1:\(broker.port) refused the connection: not authorised (check the user name and password)")

        let anonymous = try MQTTSettings(url: "mqtt://127.0.0.1:\(broker.port)/plants", environment: [:])
        #expect(throws: MQTTError.self) { try MQTTPublisher(settings: anonymous, softwareVersion: MQTTPublisherTests.version) }

        let right = try MQTTSettings(url: url, environment: [MQTTSettings.passwordVariable: "right horse battery"])
        let publisher = try MQTTPublisher(settings: right, softwareVersion: MQTTPublisherTests.version)
        #expect(publisher.isConnected)
        publisher.close()
    }

    @Test func tlsWithTheBrokersCAConnectsAndAnotherCAIsRefused() throws {
        let broker = try TestBroker(tls: true)
        let url = "mqtts://127.0.0.1:\(broker.port)/plants"
        let trusted = try MQTTSettings(url: url, caFile: broker.caFile, environment: [:])
        let publisher = try MQTTPublisher(settings: trusted, softwareVersion: MQTTPublisherTests.version)
        #expect(publisher.isConnected, "\(publisher.takeEvents()) \(broker.log)")
        publisher.close()

        let stranger = try makeCertificateAuthority(in: broker.folder, name: "stranger")
        let untrusted = try MQTTSettings(url: url, caFile: stranger.certificate, environment: [:])
        var failure: MQTTError?
        do {
            _ = try MQTTPublisher(settings: untrusted, softwareVersion: MQTTPublisherTests.version)
        } catch {
            failure = error
        }
        guard case .tlsFailed(let failedBroker, let reason)? = failure else {
            Issue.record("expected tlsFailed, got \(String(describing: failure))")
            return
        }
        #expect(failedBroker == "127.0.0.1:\(broker.port)")
        #expect(reason.contains("certificate verify failed"), "\(reason)")
    }

    @Test func unknownHostIsAnError() throws {
        let settings = try MQTTSettings(url: "mqtt://no-such-host.invalid/plants", environment: [:])
        var failure: MQTTError?
        do {
            _ = try MQTTPublisher(settings: settings, softwareVersion: MQTTPublisherTests.version)
        } catch {
            failure = error
        }
        guard case .unknownHost(let host, _)? = failure else {
            Issue.record("expected unknownHost, got \(String(describing: failure))")
            return
        }
        #expect(host == "no-such-host.invalid")
        #expect(failure?.description.hasPrefix("MQTT broker host 'no-such-host.invalid' not found: ") == true)
    }

    /// The publisher's events up to the first that `isAwaited`, waiting up to `timeout` seconds for each change.
    static func events(of publisher: MQTTPublisher, until isAwaited: (MQTTEvent) -> Bool, timeout: Double = 20) -> [MQTTEvent] {
        var events: [MQTTEvent] = []
        while !events.contains(where: isAwaited) {
            let more = publisher.takeEvents(waitingUpTo: timeout)
            if more.isEmpty { break }
            events += more
        }
        return events
    }

    static func isLoss(_ event: MQTTEvent) -> Bool {
        if case .lost = event { return true }
        return false
    }

    @Test func libraryErrorsAreOneLine() {
        let missing = MQTTError.libraryMissing(reason: "libmosquitto.so.1: cannot open shared object file: No such file or directory")
        // The loader's "No such file" adds nothing to "not found".
        #expect(missing.description == "libmosquitto.so.1 not found")
        let brokenDependency = MQTTError.libraryMissing(reason: "libssl.so.3: cannot open shared object file: Permission denied")
        #expect(brokenDependency.description == "libmosquitto.so.1 not found: libssl.so.3: cannot open shared object file: Permission denied")
    }
}
