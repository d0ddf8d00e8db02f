import Glibc
import PlantLeafCore
import PlantLeafSupport

/// The names and addresses a request's Host header may give. A web page the user visits
/// elsewhere can point a name of its own at 127.0.0.1 (DNS rebinding) and then read this server
/// as if it were its own site; the browser still sends that page's name as the Host, so a Host
/// this server does not answer for is refused. Any IP address is fine (a page at an address is
/// its own site, not another's), as are loopback's names, this machine's own name (and that name
/// under .local, as mDNS gives it), and the names given with --host.
public struct ServedNames: Sendable {
    private let names: Set<String>

    /// `extraNames`: what --host gave (a DNS name the server is reached by, say).
    public init(extraNames: [String]) {
        var names = Set(extraNames.map(ServedNames.normalised))
        names.insert("localhost")
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count - 1) == 0 {
            let machine = ServedNames.normalised(stringFromCBuffer(buffer))
            if !machine.isEmpty {
                names.insert(machine)
                names.insert(machine + ".local")
            }
        }
        self.names = names
    }

    /// Whether a Host header's value names this server. The port, if any, is not looked at.
    public func answers(forHost header: String) -> Bool {
        let host = ServedNames.hostPart(of: header)
        if ServedNames.isAddress(host) { return true }
        let name = ServedNames.normalised(host)
        return names.contains(name) || name.hasSuffix(".localhost")
    }

    /// The Host's name or address without its port, and an IPv6 address without its brackets.
    private static func hostPart(of header: String) -> String {
        let value = header.trimmingWhitespace()
        if value.hasPrefix("["), let close = value.firstIndex(of: "]") {
            return String(value[value.index(after: value.startIndex)..<close])
        }
        if let colon = value.firstIndex(of: ":") { return String(value[..<colon]) }
        return value
    }

    private static func isAddress(_ text: String) -> Bool {
        guard !text.isEmpty, !text.contains("\0") else { return false }
        var probe4 = in_addr(), probe6 = in6_addr()
        return inet_pton(AF_INET, text, &probe4) == 1 || inet_pton(AF_INET6, text, &probe6) == 1
    }

    /// Lower case, without the root's trailing dot ("Pi.Local." is "pi.local").
    private static func normalised(_ name: String) -> String {
        let lowered = name.lowercased()
        return lowered.hasSuffix(".") ? String(lowered.dropLast()) : lowered
    }
}
