import PlantLeafCore
import PlantLeafSupport

/// Why `plantleaf serve` could not start serving.
public enum ServeError: PlantLeafError {
    /// libmicrohttpd could not be opened (not installed): dlopen's reason.
    case libraryMissing(reason: String)
    /// libmicrohttpd lacks an entry point PlantLeaf calls.
    case libraryUnusable(reason: String)
    /// --tls-cert was given, and this libmicrohttpd was built without HTTPS.
    case tlsUnsupported
    /// Another program (or another serve) listens on the port.
    case addressInUse(address: String)
    case cannotListen(address: String, reason: String)
    /// A thread the server needs could not be started.
    case cannotStart(reason: String)
    /// A token, certificate or key file that cannot be used.
    case unusableFile(path: String, what: String, reason: String)

    public var message: String {
        switch self {
        case .libraryMissing(let reason): return "cannot open the HTTP library libmicrohttpd: \(reason)"
        case .libraryUnusable(let reason): return "the HTTP library libmicrohttpd cannot be used: \(reason)"
        case .tlsUnsupported: return "this libmicrohttpd was built without HTTPS"
        case .addressInUse(let address): return "cannot listen on \(address): the address is already in use"
        case .cannotListen(let address, let reason): return "cannot listen on \(address): \(reason)"
        case .cannotStart(let reason): return reason
        case .unusableFile(let path, let what, let reason): return "cannot use \(path) as the \(what): \(reason)"
        }
    }

    public var details: String? { nil }
}
