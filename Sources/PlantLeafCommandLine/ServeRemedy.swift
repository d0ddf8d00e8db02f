import PlantLeafCore
import PlantLeafServe

/// What to do about a server that cannot start; in English, as a server's log is.
extension ServeError: HasRemedy {
    func remedy(in catalogue: Catalogue) -> String? {
        switch self {
        case .libraryMissing: return ": install libmicrohttpd12 (sudo apt install libmicrohttpd12, libmicrohttpd12t64 on Debian 13)"
        case .libraryUnusable: return "; reinstall libmicrohttpd12 (sudo apt install --reinstall libmicrohttpd12)"
        case .tlsUnsupported: return ": serve plain HTTP behind a reverse proxy that holds the certificate (docs/serve.md)"
        case .addressInUse: return " (another program holds the port: pick another with --listen, or stop it)"
        case .cannotListen: return " (check --listen's address is this machine's, a port below 1024 needs root, and --tls-key fits --tls-cert)"
        // These name the file and what is wrong with it, or the thread and the system's reason.
        case .unusableFile, .cannotStart: return nil
        }
    }
}
