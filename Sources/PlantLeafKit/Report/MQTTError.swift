/// Why MQTT publishing could not be set up. Each description is one line saying what failed and
/// where; none names a command-line flag (the CLI adds those).
public enum MQTTError: Error, Equatable, CustomStringConvertible {
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
    /// The broker answered the connection with a refusal (CONNACK code 1-5).
    case refused(broker: String, reason: String)
    /// TLS could not be set up, or the handshake with the broker failed.
    case tlsFailed(broker: String, reason: String)
    /// A libmosquitto call that sets the client up failed.
    case setupFailed(step: String, reason: String)

    public var description: String {
        switch self {
        case .invalidURL(let url, let reason):
            return "MQTT URL '\(url)': \(reason); expected mqtt://[user@]host[:port]/base/topic or mqtts://…"
        case .passwordInURL(let url):
            return "MQTT URL '\(url)' contains a password: put it in the environment variable "
                + "\(MQTTSettings.passwordVariable) or in a password file instead, and give only user@host in the URL"
        case .invalidBaseTopic(let topic, let reason):
            return "MQTT base topic '\(topic)': \(reason)"
        case .passwordWithoutUser(let path):
            return "MQTT password file \(path) given, but the URL names no user: write it as mqtt://user@host/topic"
        case .passwordFileUnreadable(let path, let reason):
            return "MQTT password file \(path): cannot read it: \(reason)"
        case .passwordFileEmpty(let path):
            return "MQTT password file \(path): its first line is empty"
        case .caFileWithoutTLS(let path):
            return "MQTT CA file \(path) given for a plain mqtt:// URL: use mqtts:// for TLS, or leave the CA file out"
        case .caFileUnreadable(let path, let reason):
            return "MQTT CA file \(path): cannot read it: \(reason)"
        case .libraryMissing(let reason):
            // The loader's own wording for "no such file" adds nothing to "not found".
            let detail = reason.contains("No such file") ? "" : " (\(reason))"
            return "\(MQTTPublisher.librarySoname) not found\(detail): install libmosquitto1 (sudo apt install libmosquitto1)"
        case .libraryUnusable(let reason):
            return "\(MQTTPublisher.librarySoname) is unusable: \(reason); reinstall libmosquitto1 (sudo apt install --reinstall libmosquitto1)"
        case .unknownHost(let host, let reason):
            return "MQTT broker host '\(host)' not found: \(reason)"
        case .refused(let broker, let reason):
            return "MQTT broker \(broker) refused the connection: \(reason)"
        case .tlsFailed(let broker, let reason):
            return "MQTT broker \(broker): TLS failed: \(reason)"
        case .setupFailed(let step, let reason):
            return "MQTT client set-up failed: \(step): \(reason)"
        }
    }
}
