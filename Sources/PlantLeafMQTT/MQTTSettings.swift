import PlantLeafCore
import Glibc
import PlantLeafSupport

/// Where and how to publish: the broker, the credentials and the base topic, read from a URL
/// `mqtt://[user@]host[:port]/base/topic` (or `mqtts://` for TLS) and validated once, up front.
///
/// The password never comes from the URL: it is read from the first line of a password file
/// when one is given, else from the environment variable ``passwordVariable``, and only when the
/// URL names a user (MQTT 3.1.1 sends a password only with a user name).
public struct MQTTSettings: Sendable, Equatable, CustomStringConvertible {
    /// Environment variable holding the broker password when no password file is given.
    public static let passwordVariable = "PLANTLEAF_MQTT_PASSWORD"
    public static let defaultPort = 1883
    public static let defaultTLSPort = 8883
    /// Where TLS looks for trusted CA certificates when no CA file is given (Debian's ca-certificates).
    public static let systemCertificateDirectory = "/etc/ssl/certs"

    /// The broker's host name or IP address (an IPv6 address without its URL brackets).
    public var host: String
    public var port: Int
    public var usesTLS: Bool
    public var user: String?
    public var password: String?
    /// The topic every PlantLeaf topic hangs under, without a trailing `/`.
    public var baseTopic: String
    /// PEM file of the CA certificates that may sign the broker's certificate (TLS only); nil
    /// trusts the system's certificates.
    public var caFile: String?

    /// Each classification result, published with QoS 1 and not retained.
    public var resultTopic: String { baseTopic + MQTTSettings.resultSuffix }
    static let resultSuffix = "/result"
    /// `online` (retained) while connected; `offline` after a clean close or, as the last will,
    /// when the broker loses the connection.
    public var availabilityTopic: String { baseTopic + MQTTSettings.availabilitySuffix }
    static let availabilitySuffix = "/availability"
    /// What Home Assistant shows, each published retained so that a Home Assistant that restarts
    /// (or any later subscriber) gets the last reading at once: the readable state,
    public var stateTopic: String { baseTopic + MQTTSettings.stateSuffix }
    static let stateSuffix = "/state"
    /// its attributes (JSON: verdict, time, top classes),
    public var attributesTopic: String { baseTopic + MQTTSettings.attributesSuffix }
    static let attributesSuffix = "/attributes"
    /// what of them holds while the reading's state does (JSON: the state in words, verdict,
    /// reason, advice, top classes by name, with no time or score), the Reading's and Problem's
    /// attributes, so Home Assistant's recorder writes a row when the reading changes, not at
    /// every reading,
    public var detailsTopic: String { baseTopic + MQTTSettings.detailsSuffix }
    static let detailsSuffix = "/details"
    /// `ON` or `OFF` for the problem sensor,
    public var problemTopic: String { baseTopic + MQTTSettings.problemSuffix }
    static let problemSuffix = "/problem"
    /// and the frame the reading was made from, as JPEG bytes.
    public var imageTopic: String { baseTopic + MQTTSettings.imageSuffix }
    static let imageSuffix = "/image"

    /// `host:port` for messages; an IPv6 address in brackets so the port stays readable.
    public var broker: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }

    /// The settings as a URL without the password, safe to log.
    public var description: String {
        (usesTLS ? "mqtts://" : "mqtt://") + (user.map { $0 + "@" } ?? "") + broker + "/" + baseTopic
    }

    /// Parses and checks `url`, reads the password (from `passwordFile`, else from
    /// `environment[passwordVariable]`) and checks that `caFile` can be read.
    public init(url: String, passwordFile: String? = nil, caFile: String? = nil,
                environment: [String: String] = MQTTSettings.currentEnvironment()) throws(MQTTError) {
        let shown = MQTTSettings.maskingPassword(in: url)
        func invalid(_ problem: MQTTURLProblem) -> MQTTError { .invalidURL(url: shown, problem: problem) }

        guard let schemeEnd = url.firstRange(of: "://") else { throw invalid(.noScheme) }
        switch url[..<schemeEnd.lowerBound].lowercased() {
        case "mqtt": usesTLS = false
        case "mqtts": usesTLS = true
        case let other: throw invalid(.unknownScheme(other))
        }
        let rest = url[schemeEnd.upperBound...]
        // '?' would be a query in any other URL: refusing it beats publishing to a topic holding it.
        guard !rest.contains("?") else { throw invalid(.queryString) }
        guard let pathStart = rest.firstIndex(of: "/") else { throw invalid(.noBaseTopic) }
        var authority = rest[..<pathStart]

        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            guard !userInfo.contains(":") else { throw MQTTError.passwordInURL(url: shown) }
            guard let bytes = MQTTSettings.percentDecoded(userInfo), !bytes.isEmpty else {
                throw invalid(.badUserName)
            }
            // MQTT user names are UTF-8; decoding anything else would send another name.
            guard let decoded = String(validating: bytes, as: UTF8.self) else { throw invalid(.userNameNotText) }
            // A NUL ends the name libmosquitto sends (ad%00min connected as "ad"); other
            // controls have no place in a name either.
            if let control = decoded.unicodeScalars.first(where: MQTTSettings.isControl) {
                throw invalid(.userNameControlCharacter(codePoint: MQTTSettings.codePoint(control)))
            }
            user = decoded
            authority = authority[authority.index(after: at)...]
        } else {
            user = nil
        }

        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw invalid(.unclosedBracket) }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let afterBracket = authority[authority.index(after: close)...]
            if !afterBracket.isEmpty {
                guard afterBracket.hasPrefix(":") else { throw invalid(.unexpectedAfterIPv6(String(afterBracket))) }
                portText = afterBracket.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: ":") {
            host = String(authority[..<colon])
            let afterColon = authority[authority.index(after: colon)...]
            guard !afterColon.contains(":") else { throw invalid(.ipv6WithoutBrackets) }
            portText = afterColon
        } else {
            host = String(authority)
        }
        guard !host.isEmpty else { throw invalid(.noHost) }
        if let bad = host.unicodeScalars.first(where: { !MQTTSettings.isHostCharacter($0) }) {
            throw invalid(.hostCharacter(bad.escaped(asASCII: true)))
        }
        if let portText {
            // Digits only: Int() alone would also take "+1883".
            guard portText.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(portText), (1...65_535).contains(number) else {
                throw invalid(.invalidPort(String(portText)))
            }
            port = number
        } else {
            port = usesTLS ? MQTTSettings.defaultTLSPort : MQTTSettings.defaultPort
        }

        var topic = rest[rest.index(after: pathStart)...]
        while topic.hasSuffix("/") { topic = topic.dropLast() }
        guard !topic.isEmpty else { throw invalid(.noBaseTopic) }
        baseTopic = String(topic)
        try MQTTSettings.checkBaseTopic(baseTopic)

        password = try MQTTSettings.readPassword(user: user, passwordFile: passwordFile, environment: environment)

        if let caFile {
            guard usesTLS else { throw MQTTError.caFileWithoutTLS(path: caFile) }
            do {
                _ = try FileReader.readAll(path: caFile, maximumSize: 16 * 1_048_576)
            } catch {
                throw MQTTError.caFileUnreadable(path: caFile, reason: error)
            }
        }
        self.caFile = caFile
    }

    /// The process environment's password variable, the one thing these settings read from it.
    public static func currentEnvironment() -> [String: String] {
        guard let value = getenv(passwordVariable) else { return [:] }
        return [passwordVariable: String(cString: value)]
    }

    /// Refuses what would make the topics unusable: wildcards (not allowed in a published topic),
    /// `$` (broker-reserved, e.g. `$SYS`), empty levels, control characters, too long.
    static func checkBaseTopic(_ topic: String) throws(MQTTError) {
        func invalid(_ problem: MQTTTopicProblem) -> MQTTError { .invalidBaseTopic(topic: topic, problem: problem) }
        if let wildcard = topic.first(where: { $0 == "+" || $0 == "#" }) {
            throw invalid(.wildcard(wildcard))
        }
        if topic.hasPrefix("$") { throw invalid(.reserved) }
        if topic.split(separator: "/", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            throw invalid(.emptyLevel)
        }
        if topic.unicodeScalars.contains(where: isControl) {
            throw invalid(.controlCharacter)
        }
        // The discovery config topics repeat the base topic (as a node id) under their own
        // prefix, so the longest topic depends on which characters the base topic has.
        let longest = publishedTopics(baseTopic: topic).map(\.utf8.count).max() ?? 0
        if longest > maximumTopicBytes {
            throw invalid(.tooLong(bytes: longest, limit: maximumTopicBytes))
        }
    }

    /// MQTT's limit on a topic name's UTF-8 bytes.
    static let maximumTopicBytes = 65_535

    /// Every topic published under `baseTopic`: result, availability, Home Assistant's and the
    /// discovery configs.
    static func publishedTopics(baseTopic: String) -> [String] {
        [resultSuffix, availabilitySuffix, stateSuffix, attributesSuffix, detailsSuffix, problemSuffix, imageSuffix].map { baseTopic + $0 }
            + HomeAssistantDiscovery.configTopics(baseTopic: baseTopic)
    }

    /// C0 and C1 controls and DEL.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// "U+0000", as Unicode writes a code point.
    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(4 - hex.count, 0)) + hex
    }

    /// The password for `user`: the first line of `passwordFile` (its line ending stripped), or
    /// the environment variable. Nil when there is no user, or no password for it.
    static func readPassword(user: String?, passwordFile: String?, environment: [String: String]) throws(MQTTError) -> String? {
        guard let passwordFile else {
            guard user != nil, let value = environment[passwordVariable], !value.isEmpty else { return nil }
            return value
        }
        guard user != nil else { throw MQTTError.passwordWithoutUser(passwordFile: passwordFile) }
        let bytes: [UInt8]
        do {
            bytes = try FileReader.readAll(path: passwordFile, maximumSize: 65_536)
        } catch {
            throw MQTTError.passwordFileUnreadable(path: passwordFile, reason: error)
        }
        var line = bytes.prefix { $0 != UInt8(ascii: "\n") }
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        guard !line.isEmpty else { throw MQTTError.passwordFileEmpty(path: passwordFile) }
        // Sent as a C string: a NUL would cut it short, and replacing bytes that are not UTF-8
        // would send another password; either way the broker would refuse a password the user
        // never wrote.
        guard !line.contains(0), let password = String(validating: line, as: UTF8.self) else {
            throw MQTTError.passwordNotText(path: passwordFile)
        }
        return password
    }

    /// `url` with the password of any `user:password@` replaced by `***`, for error messages.
    static func maskingPassword(in url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@"),
              let colon = rest[..<at].firstIndex(of: ":") else { return url }
        return String(url[..<rest.index(after: colon)]) + "***" + String(url[at...])
    }

    /// Decodes %XX escapes (so a user name may hold '@' or ':'); nil for a broken escape.
    static func percentDecoded(_ text: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(HexDigit.value), let low = iterator.next().flatMap(HexDigit.value) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }


    /// Host names (letters, digits, '-', '.', '_'), IPv4 and IPv6 addresses (hex, ':', and '%'
    /// before a zone such as eth0).
    private static func isHostCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", ".", "_", ":", "%": return true
        default: return false
        }
    }
}
