import PlantLeafCore

/// What is wrong with a `--mqtt` URL, in any catalogue's language; the parts of the URL it
/// quotes stay as they are.
public enum MQTTURLProblem: Sendable, Equatable {
    case noScheme
    case unknownScheme(String)
    case queryString
    case noBaseTopic
    /// Nothing before '@', or a %-escape that does not decode.
    case badUserName
    case userNameNotText
    /// `codePoint` as Unicode writes it: "U+0000".
    case userNameControlCharacter(codePoint: String)
    case unclosedBracket
    case unexpectedAfterIPv6(String)
    case ipv6WithoutBrackets
    case noHost
    /// `character` escaped as Swift's `escaped(asASCII:)` gives it.
    case hostCharacter(String)
    case invalidPort(String)

    /// The English words, as the settings' tests and the logs give them.
    public var text: String { text(in: .english) }

    public func text(in catalogue: Catalogue) -> String {
        switch self {
        case .noScheme: return catalogue["error.mqtt.url.no-scheme"]
        case .unknownScheme(let scheme): return catalogue.text("error.mqtt.url.unknown-scheme", ["scheme": scheme])
        case .queryString: return catalogue["error.mqtt.url.query-string"]
        case .noBaseTopic: return catalogue["error.mqtt.url.no-base-topic"]
        case .badUserName: return catalogue["error.mqtt.url.bad-user-name"]
        case .userNameNotText: return catalogue["error.mqtt.url.user-name-not-text"]
        case .userNameControlCharacter(let codePoint): return catalogue.text("error.mqtt.url.user-name-control", ["code-point": codePoint])
        case .unclosedBracket: return catalogue["error.mqtt.url.unclosed-bracket"]
        case .unexpectedAfterIPv6(let text): return catalogue.text("error.mqtt.url.after-ipv6", ["text": text])
        case .ipv6WithoutBrackets: return catalogue["error.mqtt.url.ipv6-brackets"]
        case .noHost: return catalogue["error.mqtt.url.no-host"]
        case .hostCharacter(let character): return catalogue.text("error.mqtt.url.host-character", ["character": character])
        case .invalidPort(let port): return catalogue.text("error.mqtt.url.invalid-port", ["port": port])
        }
    }
}
