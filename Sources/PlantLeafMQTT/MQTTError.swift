import PlantLeafCore
/// Why MQTT publishing could not be set up: one line saying what failed and where, in any
/// catalogue's language.
public enum MQTTError: WordedError {
    /// The URL is not `mqtt[s]://[user@]host[:port]/base/topic`. `url` has any password masked.
    case invalidURL(url: String, problem: MQTTURLProblem)
    /// The URL carries `user:password@`: a password on a command line is visible to every user of
    /// the machine (ps, shell history), so it is never taken from there.
    case passwordInURL(url: String)
    /// A base topic that MQTT or Home Assistant cannot use (wildcards, empty levels, `$`).
    case invalidBaseTopic(topic: String, problem: MQTTTopicProblem)
    /// A password file was given but the URL names no user: MQTT 3.1.1 sends a password only with a user name.
    case passwordWithoutUser(passwordFile: String)
    case passwordFileUnreadable(path: String, reason: FileReadError)
    /// Its first line holds a NUL byte or is not UTF-8: sent as it is, the broker would get a password no one wrote.
    case passwordNotText(path: String)
    case passwordFileEmpty(path: String)
    /// A CA file was given for a plain `mqtt://` URL, where nothing would use it.
    case caFileWithoutTLS(path: String)
    case caFileUnreadable(path: String, reason: FileReadError)
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

    public func message(in catalogue: Catalogue) -> String {
        switch self {
        case .invalidURL(let url, _): return catalogue.text("error.mqtt.invalid-url", ["url": url])
        case .passwordInURL(let url): return catalogue.text("error.mqtt.password-in-url", ["url": url])
        case .invalidBaseTopic(let topic, _): return catalogue.text("error.mqtt.invalid-base-topic", ["topic": topic])
        case .passwordWithoutUser(let path): return catalogue.text("error.mqtt.password-without-user", ["path": path])
        case .passwordFileUnreadable(let path, _), .passwordNotText(let path):
            return catalogue.text("error.mqtt.password-file-unreadable", ["path": path])
        case .passwordFileEmpty(let path): return catalogue.text("error.mqtt.password-file-empty", ["path": path])
        case .caFileWithoutTLS(let path): return catalogue.text("error.mqtt.ca-file-without-tls", ["path": path])
        case .caFileUnreadable(let path, _): return catalogue.text("error.mqtt.ca-file-unreadable", ["path": path])
        case .libraryMissing: return catalogue.text("error.library.missing", ["library": MQTTPublisher.librarySoname])
        case .libraryUnusable: return catalogue.text("error.library.unusable", ["library": MQTTPublisher.librarySoname])
        case .unknownHost(let host, _): return catalogue.text("error.mqtt.unknown-host", ["host": host])
        case .refused(let broker, _, _): return catalogue.text("error.mqtt.refused", ["broker": broker])
        case .tlsFailed(let broker, _): return catalogue.text("error.mqtt.tls-failed", ["broker": broker])
        case .setupFailed(let step, _): return catalogue.text("error.mqtt.setup-failed", ["step": step])
        }
    }

    /// The reasons from libmosquitto, the loader and the resolver, and the names of the set-up steps, are values passed on as they are.
    public func details(in catalogue: Catalogue) -> String? {
        switch self {
        case .invalidURL(_, let problem): return catalogue.text("error.mqtt.invalid-url.expected", ["problem": problem.text(in: catalogue)])
        case .invalidBaseTopic(_, let problem): return problem.text(in: catalogue)
        case .passwordFileUnreadable(_, let reason), .caFileUnreadable(_, let reason): return reason.message(in: catalogue)
        case .passwordNotText: return catalogue["error.mqtt.password-not-text"]
        case .libraryUnusable(let reason), .unknownHost(_, let reason), .refused(_, _, let reason), .tlsFailed(_, let reason),
             .setupFailed(_, let reason):
            return reason
        // The loader's own wording for "no such file" adds nothing to "not found".
        case .libraryMissing(let reason): return reason.contains("No such file") ? nil : reason
        // The library reads the variable itself, so it names it.
        case .passwordInURL: return catalogue.text("error.mqtt.password-in-url.instead", ["variable": MQTTSettings.passwordVariable])
        case .passwordWithoutUser, .passwordFileEmpty, .caFileWithoutTLS: return nil
        }
    }
}
