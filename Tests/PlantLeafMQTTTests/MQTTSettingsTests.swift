import Foundation
import PlantLeafCore
import PlantLeafMQTT
import PlantLeafTestSupport
import Testing

/// What MQTTSettings throws for these arguments, or nil when it accepts them.
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
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let file = folder + "/password"
        try "from file\r\nsecond line\n".write(toFile: file, atomically: true, encoding: .utf8)
        let settings = try MQTTSettings(url: "mqtt://camera@host/t", passwordFile: file,
                                        environment: [MQTTSettings.passwordVariable: "from environment"])
        #expect(settings.password == "from file")
        #expect(!settings.description.contains("from file"))

        try "\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(settingsError("mqtt://camera@host/t", passwordFile: file) == .passwordFileEmpty(path: file))
        #expect(settingsError("mqtt://camera@host/t", passwordFile: folder + "/missing")?.description
                == "MQTT password file \(folder)/missing: cannot read it: no such file or directory")
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
            guard case .invalidURL(_, let problem)? = settingsError(url) else { return nil }
            return problem.text
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
            guard case .invalidBaseTopic(_, let problem)? = settingsError(url) else { return nil }
            return problem.text
        }
        #expect(reason("mqtt://host/plants/+") == "contains the wildcard '+', which only subscriptions may use")
        #expect(reason("mqtt://host/plants/#") == "contains the wildcard '#', which only subscriptions may use")
        #expect(reason("mqtt://host/$SYS/plants") == "topics starting with '$' are reserved for the broker")
        #expect(reason("mqtt://host/plants//bench") == "has an empty level ('//')")
        #expect(reason("mqtt://host//plants") == "has an empty level ('//')")
        #expect(reason("mqtt://host/plants\u{7}") == "contains a control character")
    }

    /// The check covered "/availability" only, so a base accepted here made every discovery
    /// config topic too long for MQTT.
    @Test func baseTopicLengthCountsTheLongestPublishedTopic() throws {
        let discoveryOverhead = "homeassistant/binary_sensor/".utf8.count + "/problem/config".utf8.count
        let longestBase = String(repeating: "a", count: 65_535 - discoveryOverhead)
        let longest = try MQTTSettings(url: "mqtt://host/" + longestBase, environment: [:])
        #expect(longest.baseTopic == longestBase)
        guard case .invalidBaseTopic(_, let problem)? = settingsError("mqtt://host/" + longestBase + "a") else {
            Issue.record("a base topic one byte longer was accepted")
            return
        }
        #expect(problem.text == "makes a published topic 65536 bytes long, above MQTT's 65535")
        // A non-ASCII character is one '_' in the node id but two bytes in the base topic: here
        // "<base>/availability" is the longest topic, exactly at the limit.
        let wide = String(repeating: "é", count: 32_761)
        let wideSettings = try MQTTSettings(url: "mqtt://host/" + wide, environment: [:])
        #expect(wideSettings.availabilityTopic.utf8.count == 65_535)
    }

    /// A NUL in the user name made libmosquitto send only what came before it.
    @Test func controlCharactersAndNonUTF8InCredentialsAreRefused() throws {
        func reason(_ url: String) -> String? {
            guard case .invalidURL(_, let problem)? = settingsError(url) else { return nil }
            return problem.text
        }
        #expect(reason("mqtt://ad%00min@host/plants") == "the user name contains the control character U+0000")
        #expect(reason("mqtt://ad%1Bmin@host/plants") == "the user name contains the control character U+001B")
        #expect(reason("mqtt://ad%C2%85min@host/plants") == "the user name contains the control character U+0085")
        #expect(reason("mqtt://ad%FFmin@host/plants") == "the user name is not UTF-8 text")
        let escaped = try MQTTSettings(url: "mqtt://j%C3%BCrgen@host/plants", environment: [:])
        #expect(escaped.user == "jürgen")

        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let file = folder + "/password"
        for bytes in [Array("ad\0min\n".utf8), [0x61, 0xFF, 0x62]] {
            TestImages.write(bytes, to: file)
            #expect(settingsError("mqtt://camera@host/t", passwordFile: file)?.description
                    == "MQTT password file \(file): cannot read it: its first line holds a NUL byte or is not UTF-8 text")
        }
        // The limit is 64 KiB, which "MiB" rounded down to "0 MiB".
        TestImages.write([UInt8](repeating: 0x61, count: 65_537), to: file)
        #expect(settingsError("mqtt://camera@host/t", passwordFile: file)?.details == "65537 bytes, more than the 64 KiB limit")
    }

    @Test func caFileIsForTLSAndMustBeReadable() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let file = folder + "/ca.pem"
        try "-----BEGIN CERTIFICATE-----\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try MQTTSettings(url: "mqtts://host/t", caFile: file, environment: [:]).caFile == file)
        #expect(settingsError("mqtt://host/t", caFile: file) == .caFileWithoutTLS(path: file))
        #expect(settingsError("mqtts://host/t", caFile: folder)?.description == "MQTT CA file \(folder): cannot read it: is a directory")
    }
}
