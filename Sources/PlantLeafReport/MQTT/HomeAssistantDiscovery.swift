import PlantLeafCore
/// Home Assistant MQTT discovery: three retained config messages that make Home Assistant show a
/// PlantLeaf camera as one device with three sensors, all read from the result topic:
///
/// - `top_class`: the label of the best class (`top[0].label` of the result JSON);
/// - `top_score`: its score as a percentage, 0-100 with one decimal (`top[0].score` × 100);
/// - `last_seen`: the result's `time` (ISO 8601 with offset), as a timestamp sensor.
///
/// Each sensor goes offline with the availability topic. Config topics are
/// `<prefix>/sensor/<nodeId>/<object id>/config`.
public struct HomeAssistantDiscovery: Sendable, Equatable {
    /// One MQTT message: published retained, QoS 1.
    public struct Message: Sendable, Equatable {
        public var topic: String
        public var payload: String
    }

    /// Home Assistant's default discovery prefix.
    public static let defaultPrefix = "homeassistant"

    /// The base topic with every character outside [a-zA-Z0-9_-] replaced by `_`, as discovery
    /// topics and ids allow.
    public let nodeId: String
    /// The three sensor configs, in the order above.
    public let messages: [Message]

    /// - Parameters:
    ///   - settings: gives the base topic (hence the node id), the result and availability topics.
    ///   - softwareVersion: shown as the device's firmware version.
    ///   - prefix: Home Assistant's discovery prefix, if changed from the default there.
    public init(settings: MQTTSettings, softwareVersion: String, prefix: String = HomeAssistantDiscovery.defaultPrefix) {
        nodeId = HomeAssistantDiscovery.nodeId(baseTopic: settings.baseTopic)
        var device = JSONObject()
        device.add("identifiers", json: "[" + JSONObject.quote("plantleaf_" + nodeId) + "]")
        device.add("name", "PlantLeaf " + settings.baseTopic)
        device.add("model", "PlantLeaf")
        device.add("sw_version", softwareVersion)

        let nodeId = nodeId
        messages = HomeAssistantDiscovery.sensors.map { sensor in
            var config = JSONObject()
            config.add("name", sensor.name)
            config.add("has_entity_name", true)
            config.add("unique_id", "plantleaf_\(nodeId)_\(sensor.objectId)")
            config.add("state_topic", settings.resultTopic)
            config.add("value_template", sensor.template)
            for (key, value) in sensor.extra { config.add(key, value) }
            config.add("availability_topic", settings.availabilityTopic)
            config.add("payload_available", MQTTPublisher.onlinePayload)
            config.add("payload_not_available", MQTTPublisher.offlinePayload)
            config.add("device", device)
            return Message(topic: HomeAssistantDiscovery.configTopic(prefix: prefix, nodeId: nodeId, objectId: sensor.objectId), payload: config.text)
        }
    }

    private static let sensors: [(objectId: String, name: String, template: String, extra: [(String, String)])] = [
        ("top_class", "Top class", "{{ value_json.top[0].label }}", [("icon", "mdi:leaf")]),
        ("top_score", "Top score", "{{ (value_json.top[0].score * 100) | round(1) }}",
         [("unit_of_measurement", "%"), ("state_class", "measurement")]),
        ("last_seen", "Last seen", "{{ value_json.time }}", [("device_class", "timestamp")]),
    ]

    private static func configTopic(prefix: String, nodeId: String, objectId: String) -> String {
        "\(prefix)/sensor/\(nodeId)/\(objectId)/config"
    }

    /// The config topics published for `baseTopic`, in the order of ``messages``.
    public static func configTopics(baseTopic: String, prefix: String = defaultPrefix) -> [String] {
        let nodeId = HomeAssistantDiscovery.nodeId(baseTopic: baseTopic)
        return sensors.map { configTopic(prefix: prefix, nodeId: nodeId, objectId: $0.objectId) }
    }

    /// The Home Assistant node id for a base topic: its characters outside [A-Za-z0-9_-] become '_'.
    public static func nodeId(baseTopic: String) -> String {
        String(String.UnicodeScalarView(baseTopic.unicodeScalars.map { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_", "-": return scalar
            default: return "_"
            }
        }))
    }
}
