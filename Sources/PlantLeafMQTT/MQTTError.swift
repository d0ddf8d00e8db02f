import PlantLeafCore
/// Why MQTT publishing could not be set up: one line saying what failed and where.
public enum MQTTError: PlantLeafError {
    /// The URL is not `mqtt[s]://[user@]host[:port]/base/topic`. `url` has any password masked.
    case invalidURL(url: String, reason: String)
    /// The URL carries `user:password@`: a password on a command line is visible to every user of
    /// the machine (ps, shell history), so it is never taken from there.
    case passwordInURL(url: String)
    /// A base topic that MQTT or Home Assistant cannot use (wildcards, empty levels, `$`).
    case invalidBaseTopic(topic: String, reason: String)
    /// A password file was given but the URL names no user: MQTT 3.1.1 sends a password only with a user name.
    case passwordWithoutUser(passwordFile: String)
    case passwordFileUnreadable(path: String, reason: String)
    case passwordFileEmpty(path: String)
    /// A CA file was given for a plain `mqtt://` URL, where nothing would use it.
    case caFileWithoutTLS(path: String)
    case caFileUnreadable(path: String, reason: String)
    /// dlopen could not open libmosquitto.so.1 (`reason` is the loader's).
    case libraryMissing(reason: String)
    /// libmosquitto.so.1 opened but lacks an entry point PlantLeaf calls, or failed to initialise.
    case libraryUnusable(reason: String)
    /// The broker's name does not resolve to any address.
    case unknownHost(host: String, reason: String)
    /// The broker answered the connection with a refusal (CONNACK code 1-5); `user` is the user
    /// name sent, nil when none was.
    case refused(broker: String, user: String?, reason: String)
    /// TLS could not be set up, or the handshake with the broker failed.
    case tlsFailed(broker: String, reason: String)
    /// A libmosquitto call that sets the client up failed.
    case setupFailed(step: String, reason: String)

    public var message: String {
        switch self {
        case .invalidURL(let url, _): return "MQTT URL '\(url)'"
        case .passwordInURL(let url): return "MQTT URL '\(url)' contains a password"
        case .invalidBaseTopic(let topic, _): return "MQTT base topic '\(topic)'"
        case .passwordWithoutUser(let path): return "MQTT password file \(path) given, but the URL names no user"
        case .passwordFileUnreadable(let path, _): return "MQTT password file \(path): cannot read it"
        case .passwordFileEmpty(let path): return "MQTT password file \(path): its first line is empty"
        case .caFileWithoutTLS(let path): return "MQTT CA file \(path) given for a plain mqtt:// URL"
        case .caFileUnreadable(let path, _): return "MQTT CA file \(path): cannot read it"
        case .libraryMissing: return "\(MQTTPublisher.librarySoname) not found"
        case .libraryUnusable: return "\(MQTTPublisher.librarySoname) is unusable"
        case .unknownHost(let host, _): return "MQTT broker host '\(host)' not found"
        case .refused(let broker, _, _): return "MQTT broker \(broker) refused the connection"
        case .tlsFailed(let broker, _): return "MQTT broker \(broker): TLS failed"
        case .setupFailed(let step, _): return "MQTT client set-up failed: \(step)"
        }
    }

    public var details: String? {
        switch self {
        case .invalidURL(_, let reason): return "\(reason); expected mqtt://[user@]host[:port]/base/topic or mqtts://…"
        case .invalidBaseTopic(_, let reason), .passwordFileUnreadable(_, let reason), .caFileUnreadable(_, let reason),
             .libraryUnusable(let reason), .unknownHost(_, let reason), .refused(_, _, let reason), .tlsFailed(_, let reason),
             .setupFailed(_, let reason):
            return reason
        // The loader's own wording for "no such file" adds nothing to "not found".
        case .libraryMissing(let reason): return reason.contains("No such file") ? nil : reason
        // The library reads the variable itself, so it names it.
        case .passwordInURL:
            return "put it in the environment variable \(MQTTSettings.passwordVariable) or in a password file instead, "
                + "and give only user@host in the URL"
        case .passwordWithoutUser, .passwordFileEmpty, .caFileWithoutTLS: return nil
        }
    }
}
