import PlantLeafCore
import PlantLeafMQTT

/// What to do about a broker that cannot be reached or settings that do not fit together.
extension MQTTError: HasRemedy {
    func remedy(in catalogue: Catalogue) -> String? {
        switch self {
        case .passwordInURL: return catalogue["remedy.mqtt.password-in-url"]
        case .passwordWithoutUser: return catalogue["remedy.mqtt.password-without-user"]
        case .caFileWithoutTLS: return catalogue["remedy.mqtt.ca-file-without-tls"]
        case .libraryMissing: return catalogue["remedy.mqtt.library-missing"]
        case .libraryUnusable: return catalogue["remedy.mqtt.library-unusable"]
        case .refused(_, let user, _):
            return catalogue.text(user == nil ? "remedy.mqtt.refused.no-user" : "remedy.mqtt.refused", ["variable": MQTTSettings.passwordVariable])
        case .tlsFailed: return catalogue["remedy.mqtt.tls-failed"]
        // These name the value that is wrong and why; the option to change is plain from it.
        case .invalidURL, .invalidBaseTopic, .passwordFileUnreadable, .passwordNotText, .passwordFileEmpty, .caFileUnreadable, .unknownHost,
             .setupFailed:
            return nil
        }
    }
}
