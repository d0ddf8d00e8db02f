import PlantLeafCore

/// Why a base topic cannot be published under, in any catalogue's language.
public enum MQTTTopicProblem: Sendable, Equatable {
    /// '+' or '#'.
    case wildcard(Character)
    /// Starts with '$', which brokers keep for themselves (`$SYS`).
    case reserved
    case emptyLevel
    case controlCharacter
    /// The longest topic published under it would be `bytes` long, above MQTT's `limit`.
    case tooLong(bytes: Int, limit: Int)

    /// The English words, as the settings' tests and the logs give them.
    public var text: String { text(in: .english) }

    public func text(in catalogue: Catalogue) -> String {
        switch self {
        case .wildcard(let wildcard): return catalogue.text("error.mqtt.topic.wildcard", ["wildcard": String(wildcard)])
        case .reserved: return catalogue["error.mqtt.topic.reserved"]
        case .emptyLevel: return catalogue["error.mqtt.topic.empty-level"]
        case .controlCharacter: return catalogue["error.mqtt.topic.control-character"]
        case .tooLong(let bytes, let limit): return catalogue.text("error.mqtt.topic.too-long", ["bytes": String(bytes), "limit": String(limit)])
        }
    }
}
