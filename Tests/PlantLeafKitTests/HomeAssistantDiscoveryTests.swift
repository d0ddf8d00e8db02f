import PlantLeafCore
import PlantLeafCamera
import PlantLeafReport
import PlantLeafTestSupport
import Testing

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

