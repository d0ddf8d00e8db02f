import Foundation
import PlantLeafKit
import PlantLeafTestSupport
import Testing

/// A result as the camera command writes it: frame number, time, top classes.
private func resultJSON(frame: Int) -> String {
    #"{"frame": \#(frame), "time": "2026-12-02T10:00:00+01:00", "top": [{"label": "Tomato___Early_blight", "score": 0.93}, {"label": "Tomato___healthy", "score": 0.05}]}"#
}

/// Polls `condition` every 20 ms for up to `timeout` seconds.
private func eventually(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    repeat {
        if condition() { return true }
        usleep(20_000)
    } while Date() < deadline
    return false
}

private func settingsError(_ url: String, passwordFile: String? = nil, caFile: String? = nil,
                           environment: [String: String] = [:]) -> MQTTError? {
    do {
        _ = try MQTTSettings(url: url, passwordFile: passwordFile, caFile: caFile, environment: environment)
        return nil
    } catch {
        return error
    }
}

@Suite struct MQTTSettingsTests {
    @Test func plainURLTakesDefaults() throws {
        let settings = try MQTTSettings(url: "mqtt://broker.local/greenhouse/bench1", environment: [:])
        #expect(settings.host == "broker.local")
        #expect(settings.port == 1883)
        #expect(!settings.usesTLS)
        #expect(settings.user == nil && settings.password == nil)
        #expect(settings.baseTopic == "greenhouse/bench1")
        #expect(settings.resultTopic == "greenhouse/bench1/result")
        #expect(settings.availabilityTopic == "greenhouse/bench1/availability")
        #expect(settings.description == "mqtt://broker.local:1883/greenhouse/bench1")
    }

    @Test func tlsPortUserAndIPv6() throws {
        let tls = try MQTTSettings(url: "MQTTS://camera@10.0.0.2/plants/", environment: [:])
        #expect(tls.usesTLS && tls.port == 8883 && tls.user == "camera" && tls.baseTopic == "plants")
        let ipv6 = try MQTTSettings(url: "mqtt://[::1]:1884/plants", environment: [:])
        #expect(ipv6.host == "::1" && ipv6.port == 1884 && ipv6.broker == "[::1]:1884")
        let escaped = try MQTTSettings(url: "mqtt://cam%40home@host:2000/a/b", environment: [:])
        #expect(escaped.user == "cam@home" && escaped.port == 2000 && escaped.baseTopic == "a/b")
    }

    @Test func passwordComesFromTheEnvironmentOnlyWithAUser() throws {
        let environment = [MQTTSettings.passwordVariable: "s3cret"]
        #expect(try MQTTSettings(url: "mqtt://camera@host/t", environment: environment).password == "s3cret")
        #expect(try MQTTSettings(url: "mqtt://host/t", environment: environment).password == nil)
        #expect(try MQTTSettings(url: "mqtt://camera@host/t", environment: [:]).password == nil)
    }

    @Test func passwordFileGivesItsFirstLine() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/password"
        try "from file\r\nsecond line\n".write(toFile: file, atomically: true, encoding: .utf8)
        let settings = try MQTTSettings(url: "mqtt://camera@host/t", passwordFile: file,
                                        environment: [MQTTSettings.passwordVariable: "from environment"])
        #expect(settings.password == "from file")
        #expect(!settings.description.contains("from file"))

        try "\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(settingsError("mqtt://camera@host/t", passwordFile: file) == .passwordFileEmpty(path: file))
        #expect(settingsError("mqtt://camera@host/t", passwordFile: folder + "/missing")
                == .passwordFileUnreadable(path: folder + "/missing", reason: "no such file or directory"))
        #expect(settingsError("mqtt://host/t", passwordFile: file) == .passwordWithoutUser(passwordFile: file))
    }

    @Test func passwordInTheURLIsRefusedWithoutShowingIt() throws {
        let error = try #require(settingsError("mqtt://camera:hunter2@host/greenhouse"))
        #expect(error == .passwordInURL(url: "mqtt://camera:***@host/greenhouse"))
        #expect(!error.description.contains("hunter2"))
        #expect(error.description.contains(MQTTSettings.passwordVariable) && error.description.contains("password file"))
        // Masked in every other complaint about the same URL too.
        let badScheme = try #require(settingsError("http://camera:hunter2@host/greenhouse"))
        #expect(!badScheme.description.contains("hunter2"))
    }

    @Test func badURLsSayWhatIsWrong() {
        func reason(_ url: String) -> String? {
            guard case .invalidURL(_, let reason)? = settingsError(url) else { return nil }
            return reason
        }
        #expect(reason("broker.local/plants") == "no mqtt:// or mqtts:// at the start")
        #expect(reason("tcp://broker.local/plants") == "scheme 'tcp' is neither mqtt nor mqtts")
        #expect(reason("mqtt://broker.local") == "no base topic after the host")
        #expect(reason("mqtt://broker.local/") == "no base topic after the host")
        #expect(reason("mqtt:///plants") == "no host")
        #expect(reason("mqtt://broker.local:0/plants") == "port '0' is not a number from 1 to 65535")
        #expect(reason("mqtt://broker.local:+80/plants") == "port '+80' is not a number from 1 to 65535")
        #expect(reason("mqtt://broker.local:99999/plants") == "port '99999' is not a number from 1 to 65535")
        #expect(reason("mqtt://::1/plants") == "an IPv6 address must be in brackets: mqtt://[::1]:1883/…")
        #expect(reason("mqtt://broker local/plants") == "the host contains ' '")
        #expect(reason("mqtt://@broker/plants") == "the user name before '@' is empty or has a broken %-escape")
        #expect(reason("mqtt://broker/plants?x=1") == "query strings (?…) are not supported")
        #expect(settingsError("mqtt://broker.local/plants")?.description == nil)
        let described = settingsError("mqtt://broker.local")?.description ?? ""
        #expect(described.hasPrefix("MQTT URL 'mqtt://broker.local': no base topic") && !described.contains("\n"))
    }

    @Test func baseTopicsThatCannotBePublishedToAreRefused() {
        func reason(_ url: String) -> String? {
            guard case .invalidBaseTopic(_, let reason)? = settingsError(url) else { return nil }
            return reason
        }
        #expect(reason("mqtt://host/plants/+") == "contains the wildcard '+', which only subscriptions may use")
        #expect(reason("mqtt://host/plants/#") == "contains the wildcard '#', which only subscriptions may use")
        #expect(reason("mqtt://host/$SYS/plants") == "topics starting with '$' are reserved for the broker")
        #expect(reason("mqtt://host/plants//bench") == "has an empty level ('//')")
        #expect(reason("mqtt://host//plants") == "has an empty level ('//')")
        #expect(reason("mqtt://host/plants\u{7}") == "contains a control character")
    }

    @Test func caFileIsForTLSAndMustBeReadable() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/ca.pem"
        try "-----BEGIN CERTIFICATE-----\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try MQTTSettings(url: "mqtts://host/t", caFile: file, environment: [:]).caFile == file)
        #expect(settingsError("mqtt://host/t", caFile: file) == .caFileWithoutTLS(path: file))
        #expect(settingsError("mqtts://host/t", caFile: folder) == .caFileUnreadable(path: folder, reason: "is a directory"))
    }
}

@Suite struct HomeAssistantDiscoveryTests {
    @Test func nodeIdKeepsOnlyLettersDigitsUnderscoresAndDashes() {
        #expect(HomeAssistantDiscovery.nodeId(baseTopic: "greenhouse/bench-1") == "greenhouse_bench-1")
        #expect(HomeAssistantDiscovery.nodeId(baseTopic: "serre n°2/été") == "serre_n_2__t_")
    }

    @Test func threeSensorConfigsReadTheResultJSON() throws {
        let settings = try MQTTSettings(url: "mqtt://host/greenhouse/bench 1", environment: [:])
        let discovery = HomeAssistantDiscovery(settings: settings, softwareVersion: "1.4.0")
        #expect(discovery.nodeId == "greenhouse_bench_1")
        #expect(discovery.messages.map(\.topic) == ["top_class", "top_score", "last_seen"].map {
            "homeassistant/sensor/greenhouse_bench_1/\($0)/config"
        })
        let configs = try discovery.messages.map { message in
            try #require(jsonObject(message.payload), "not a JSON object: \(message.payload)")
        }
        for (config, objectId) in zip(configs, ["top_class", "top_score", "last_seen"]) {
            #expect(config["unique_id"] as? String == "plantleaf_greenhouse_bench_1_\(objectId)")
            #expect(config["state_topic"] as? String == "greenhouse/bench 1/result")
            #expect(config["availability_topic"] as? String == "greenhouse/bench 1/availability")
            #expect(config["payload_available"] as? String == "online")
            #expect(config["payload_not_available"] as? String == "offline")
            let device = try #require(config["device"] as? [String: Any])
            #expect(device["identifiers"] as? [String] == ["plantleaf_greenhouse_bench_1"])
            #expect(device["name"] as? String == "PlantLeaf greenhouse/bench 1")
            #expect(device["model"] as? String == "PlantLeaf")
            #expect(device["sw_version"] as? String == "1.4.0")
        }
        #expect(configs[0]["value_template"] as? String == "{{ value_json.top[0].label }}")
        #expect(configs[1]["value_template"] as? String == "{{ (value_json.top[0].score * 100) | round(1) }}")
        #expect(configs[1]["unit_of_measurement"] as? String == "%")
        #expect(configs[1]["state_class"] as? String == "measurement")
        #expect(configs[2]["value_template"] as? String == "{{ value_json.time }}")
        #expect(configs[2]["device_class"] as? String == "timestamp")
    }

    @Test func textIsEscapedInTheJSON() throws {
        let settings = try MQTTSettings(url: #"mqtt://host/say "hi"\now"#, environment: [:])
        let discovery = HomeAssistantDiscovery(settings: settings, softwareVersion: "1.0 \"beta\"")
        let config = try #require(jsonObject(discovery.messages[0].payload))
        #expect(config["state_topic"] as? String == #"say "hi"\now/result"#)
        #expect((config["device"] as? [String: Any])?["sw_version"] as? String == "1.0 \"beta\"")
    }
}

/// Against a real mosquitto broker started by each test; `mosquitto_sub` reads what arrives.
@Suite struct MQTTPublisherTests {
    static let version = "0.0-test"

    @Test func publishesResultsAvailabilityAndDiscovery() throws {
        let broker = try TestBroker()
        let settings = try MQTTSettings(url: "mqtt://127.0.0.1:\(broker.port)/greenhouse/bench1", environment: [:])
        let publisher = try MQTTPublisher(settings: settings, softwareVersion: MQTTPublisherTests.version)
        #expect(publisher.isConnected)
        #expect(publisher.takeEvents() == ["connected to 127.0.0.1:\(broker.port)"])

        // Subscribing after the publisher connected: what arrives first is what it left retained.
        let reader = try TopicReader(port: broker.port, topics: ["greenhouse/bench1/#", "homeassistant/#"], folder: broker.folder)
        let online = reader.waitFor { $0.topic == settings.availabilityTopic }
        #expect(online == ReceivedMessage(retained: true, topic: "greenhouse/bench1/availability", payload: "online"), "\(broker.log)")
        for message in publisher.discovery.messages {
            let received = reader.waitFor { $0.topic == message.topic }
            #expect(received == ReceivedMessage(retained: true, topic: message.topic, payload: message.payload))
        }

        publisher.publish(resultJSON(frame: 1))
        publisher.publish(resultJSON(frame: 2))
        let second = reader.waitFor { $0.payload == resultJSON(frame: 2) }
        #expect(second == ReceivedMessage(retained: false, topic: "greenhouse/bench1/result", payload: resultJSON(frame: 2)))
        #expect(reader.messages.filter { $0.topic == settings.resultTopic }.map(\.payload).allSatisfy {
            $0 == resultJSON(frame: 1) || $0 == resultJSON(frame: 2)
        })

        publisher.close()
        #expect(!publisher.isConnected)
        #expect(reader.waitFor { $0.topic == settings.availabilityTopic && $0.payload == "offline" } != nil)
        publisher.publish(resultJSON(frame: 3))  // after close: ignored
        usleep(200_000)
        #expect(!reader.messages.contains { $0.payload == resultJSON(frame: 3) })
    }

    @Test func resumesAfterTheBrokerRestartsWithOnlyTheNewestResult() throws {
        let broker = try TestBroker()
        let settings = try MQTTSettings(url: "mqtt://127.0.0.1:\(broker.port)/plants", environment: [:])
        let publisher = try MQTTPublisher(settings: settings, softwareVersion: MQTTPublisherTests.version)
        var reader = try TopicReader(port: broker.port, topics: ["plants/#"], folder: broker.folder)
        #expect(reader.waitFor { $0.payload == "online" } != nil)
        publisher.publish(resultJSON(frame: 1))
        #expect(reader.waitFor { $0.payload == resultJSON(frame: 1) } != nil)

        broker.stop()
        reader.stop()
        #expect(eventually { !publisher.isConnected }, "the publisher did not notice the broker went away")
        let lost = Date()
        // While the broker is away: ten results, of which only the last should ever arrive.
        for frame in 2...11 { publisher.publish(resultJSON(frame: frame)) }
        #expect(Date().timeIntervalSince(lost) < 0.5, "publish waited for the network")
        // libmosquitto retries 1 s after the loss, then at least 2 s after that: restarting in
        // between gives the new reader over a second to subscribe before the publisher is back.
        usleep(UInt32(max(0, 1.5 - Date().timeIntervalSince(lost)) * 1e6))
        try broker.start()
        reader = try TopicReader(port: broker.port, topics: ["plants/#"], folder: broker.folder)
        let newest = reader.waitFor(timeout: 20) { $0.payload == resultJSON(frame: 11) }
        #expect(newest == ReceivedMessage(retained: false, topic: "plants/result", payload: resultJSON(frame: 11)), "\(broker.log)")
        #expect(publisher.isConnected)
        let replayed = reader.messages.filter { $0.topic == "plants/result" && $0.payload != resultJSON(frame: 11) }
        #expect(replayed.isEmpty, "older results were replayed: \(replayed)")
        // The restarted broker kept nothing: `online` is there because the publisher sent it again.
        #expect(reader.messages.contains { $0.topic == "plants/availability" && $0.payload == "online" })

        publisher.publish(resultJSON(frame: 12))
        #expect(reader.waitFor { $0.payload == resultJSON(frame: 12) } != nil)
        let events = publisher.takeEvents()
        #expect(events.count == 3, "\(events)")
        #expect(events.first == "connected to 127.0.0.1:\(broker.port)")
        #expect(events.contains { $0.hasPrefix("connection to 127.0.0.1:\(broker.port) lost: ") && $0.contains("retrying") }, "\(events)")
        #expect(events.last == "connected to 127.0.0.1:\(broker.port)")
        publisher.close()
    }

    @Test func aBrokerNotUpYetIsRetriedInTheBackground() throws {
        let broker = try TestBroker()
        broker.stop()
        let settings = try MQTTSettings(url: "mqtt://127.0.0.1:\(broker.port)/plants", environment: [:])
        let publisher = try MQTTPublisher(settings: settings, softwareVersion: MQTTPublisherTests.version, connectTimeout: 0.5)
        #expect(!publisher.isConnected)
        let events = publisher.takeEvents()
        #expect(events.count == 1 && events[0].hasPrefix("cannot connect to 127.0.0.1:\(broker.port): connection refused; retrying"), "\(events)")
        publisher.publish(resultJSON(frame: 1))
        try broker.start()
        #expect(eventually(timeout: 20) { publisher.isConnected }, "no connection after the broker started")
        #expect(publisher.takeEvents() == ["connected to 127.0.0.1:\(broker.port)"])
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
        #expect(refusal == .refused(broker: "127.0.0.1:\(broker.port)", reason: "not authorised (check the user name and password)"),
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

    @Test func libraryErrorsAreOneLine() {
        let missing = MQTTError.libraryMissing(reason: "libmosquitto.so.1: cannot open shared object file: No such file or directory")
        // The loader's "No such file" adds nothing to "not found".
        #expect(missing.description == "libmosquitto.so.1 not found")
        let brokenDependency = MQTTError.libraryMissing(reason: "libssl.so.3: cannot open shared object file: Permission denied")
        #expect(brokenDependency.description == "libmosquitto.so.1 not found: libssl.so.3: cannot open shared object file: Permission denied")
    }
}
