import PlantLeafCore
import PlantLeafSupport
/// Home Assistant MQTT discovery: retained config messages that make Home Assistant show a
/// PlantLeaf camera as one device with these entities, all read from retained topics so that a
/// restarted Home Assistant shows the last reading at once:
///
/// The entities' and the device's names are in the catalogue's language; their ids, topics and
/// states are the same in every language.
///
/// - sensor `top_class`, "Reading": the readable state (`MQTTReading.state`: "Tomato — Early
///   blight" for a diagnosis, else the verdict in words, in English for automations), with the
///   reading's details as attributes (`MQTTReading.details`: verdict, reason, advice, top 3 by
///   name; nothing that changes at every reading, so the recorder keeps a row per change of
///   reading, not per reading). Its object id is the one the raw-label sensor had, so an
///   existing entity (and the dashboards using it) carries on;
/// - sensor `top_score`: the best class's score as a percentage, 0-100 with one decimal, for a
///   diagnosis; unknown otherwise, so it never shows a score the state says not to trust;
/// - sensor `last_seen`: the reading's time (ISO 8601 with offset), as a timestamp sensor;
/// - binary_sensor `problem` (device class problem): on for a diagnosis of a class that is not
///   healthy; with a journal, once such a diagnosis has held as long as an event needs, and on
///   through a blocked view (no leaf or no picture), with the reading's attributes (the
///   `view_blocked` one says so);
/// - image `frame`: the picture the reading was made from (JPEG);
/// - sensor `reading_words`, "Reading in words": the reading in the grower's language
///   (`MQTTReading.display`: «طماطم — اللفحة المتأخرة»), for a dashboard.
///
/// Each entity goes offline with the availability topic. Config topics are
/// `<prefix>/<component>/<nodeId>/<object id>/config`.
public struct HomeAssistantDiscovery: Sendable, Equatable {
    /// One MQTT message: published retained, QoS 1.
    public struct Message: Sendable, Equatable {
        public var topic: String
        public var payload: String
    }

    /// Home Assistant's default discovery prefix.
    public static let defaultPrefix = "homeassistant"
    /// The score sensor's value: none (unknown) when the reading is no diagnosis.
    public static let topScoreTemplate = "{{ (value_json.top[0].score * 100) | round(1) if value_json.verdict == 'diagnosis' else none }}"
    /// The problem sensor's payloads.
    public static let problemOn = "ON"
    public static let problemOff = "OFF"

    /// The base topic with every character outside [a-zA-Z0-9_-] replaced by `_`, as discovery
    /// topics and ids allow.
    public let nodeId: String
    /// The entity configs, in the order above.
    public let messages: [Message]

    /// - Parameters:
    ///   - settings: gives the base topic (hence the node id) and the topics read.
    ///   - softwareVersion: shown as the device's firmware version.
    ///   - prefix: Home Assistant's discovery prefix, if changed from the default there.
    ///   - cameraName: the camera's name, which names the device ("PlantLeaf Greenhouse 1"); the
    ///     base topic when there is none.
    ///   - catalogue: the language of the names Home Assistant shows.
    public init(settings: MQTTSettings, softwareVersion: String, prefix: String = HomeAssistantDiscovery.defaultPrefix,
                cameraName: String? = nil, catalogue: Catalogue = .english) {
        nodeId = HomeAssistantDiscovery.nodeId(baseTopic: settings.baseTopic)
        var device = JSONObject()
        device.add("identifiers", json: "[" + JSONObject.quote("plantleaf_" + nodeId) + "]")
        device.add("name", catalogue.text("mqtt.device", ["camera": cameraName ?? settings.baseTopic]))
        device.add("model", "PlantLeaf")
        device.add("sw_version", softwareVersion)

        let nodeId = nodeId
        messages = HomeAssistantDiscovery.entities.map { entity in
            var config = JSONObject()
            config.add("name", catalogue[entity.nameKey])
            config.add("unique_id", "plantleaf_\(nodeId)_\(entity.objectId)")
            config.add("object_id", HomeAssistantDiscovery.entityObjectId(nodeId: nodeId, entity: entity))
            for (key, value) in entity.settings(settings) { config.add(key, value) }
            config.add("availability_topic", settings.availabilityTopic)
            config.add("payload_available", MQTTPublisher.onlinePayload)
            config.add("payload_not_available", MQTTPublisher.offlinePayload)
            config.add("device", device)
            return Message(topic: HomeAssistantDiscovery.configTopic(prefix: prefix, component: entity.component, nodeId: nodeId,
                                                                     objectId: entity.objectId),
                           payload: config.text)
        }
    }

    private struct Entity {
        var component: String
        /// The id in the discovery topic and the unique id.
        var objectId: String
        /// The last part of the entity id Home Assistant gives it (`sensor.plantleaf_<node id>_reading`):
        /// English words that never change, where Home Assistant would otherwise make the id from
        /// the name it first saw, in whatever language that was.
        var entityIdSuffix: String
        /// The catalogue's key of the name Home Assistant shows.
        var nameKey: String
        /// The config's keys between the unique id and the availability, from the topics.
        var settings: @Sendable (MQTTSettings) -> [(String, String)]
    }

    private static let entities: [Entity] = [
        Entity(component: "sensor", objectId: "top_class", entityIdSuffix: "reading", nameKey: "mqtt.reading") { settings in
            [("state_topic", settings.stateTopic), ("json_attributes_topic", settings.detailsTopic), ("icon", "mdi:leaf")]
        },
        Entity(component: "sensor", objectId: "top_score", entityIdSuffix: "top_score", nameKey: "mqtt.top-score") { settings in
            [("state_topic", settings.attributesTopic), ("value_template", HomeAssistantDiscovery.topScoreTemplate),
             ("unit_of_measurement", "%"), ("state_class", "measurement")]
        },
        Entity(component: "sensor", objectId: "last_seen", entityIdSuffix: "last_seen", nameKey: "mqtt.last-seen") { settings in
            [("state_topic", settings.attributesTopic), ("value_template", "{{ value_json.time }}"), ("device_class", "timestamp")]
        },
        Entity(component: "binary_sensor", objectId: "problem", entityIdSuffix: "problem", nameKey: "mqtt.problem") { settings in
            [("state_topic", settings.problemTopic), ("payload_on", problemOn), ("payload_off", problemOff), ("device_class", "problem"),
             ("json_attributes_topic", settings.detailsTopic)]
        },
        // Home Assistant's MQTT image platform: the topic's payload is the image file itself.
        Entity(component: "image", objectId: "frame", entityIdSuffix: "frame", nameKey: "mqtt.frame") { settings in
            [("image_topic", settings.imageTopic), ("content_type", "image/jpeg")]
        },
        Entity(component: "sensor", objectId: "reading_words", entityIdSuffix: "reading_in_words", nameKey: "mqtt.reading-words") { settings in
            [("state_topic", settings.detailsTopic), ("value_template", "{{ value_json.display }}"), ("icon", "mdi:leaf")]
        },
    ]

    /// The object id Home Assistant makes the entity id from: the device's and the entity's
    /// English words, lower case, `-` as `_` as Home Assistant's own ids have them.
    private static func entityObjectId(nodeId: String, entity: Entity) -> String {
        String(("plantleaf_" + nodeId + "_" + entity.entityIdSuffix).lowercased().map { $0 == "-" ? "_" : $0 })
    }

    /// The entity ids Home Assistant gives the entities for `baseTopic`, in the order of ``messages``,
    /// the same in every language: what automations name.
    public static func entityIds(baseTopic: String) -> [String] {
        let nodeId = HomeAssistantDiscovery.nodeId(baseTopic: baseTopic)
        return entities.map { $0.component + "." + entityObjectId(nodeId: nodeId, entity: $0) }
    }

    private static func configTopic(prefix: String, component: String, nodeId: String, objectId: String) -> String {
        "\(prefix)/\(component)/\(nodeId)/\(objectId)/config"
    }

    /// The config topics published for `baseTopic`, in the order of ``messages``.
    public static func configTopics(baseTopic: String, prefix: String = defaultPrefix) -> [String] {
        let nodeId = HomeAssistantDiscovery.nodeId(baseTopic: baseTopic)
        return entities.map { configTopic(prefix: prefix, component: $0.component, nodeId: nodeId, objectId: $0.objectId) }
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
