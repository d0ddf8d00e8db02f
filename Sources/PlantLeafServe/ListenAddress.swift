import Glibc

/// Where the server listens: an IPv4 or IPv6 address and a port ("127.0.0.1:8080",
/// "[::]:8080", "0.0.0.0:8080").
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// The address as text, without brackets.
    public let host: String
    public let port: UInt16
    private let isIPv6: Bool

    /// Parses HOST:PORT, with an IPv6 host in brackets; nil when it is not that.
    public init?(parsing text: String) {
        let host: Substring, portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard let port = UInt16(portText), portText.allSatisfy(\.isASCII) else { return nil }
        // inet_pton reads a C string, which ends at a NUL: "::1\0junk" would pass as "::1".
        guard !host.contains("\0") else { return nil }
        var probe4 = in_addr(), probe6 = in6_addr()
        if inet_pton(AF_INET, String(host), &probe4) == 1 {
            isIPv6 = false
        } else if inet_pton(AF_INET6, String(host), &probe6) == 1 {
            isIPv6 = true
        } else {
            return nil
        }
        self.host = String(host)
        self.port = port
    }

    /// Whether only this machine can connect (127.0.0.0/8 or ::1).
    public var isLoopback: Bool { isIPv6 ? host == "::1" : host.hasPrefix("127.") }

    public var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Why a socket cannot be bound to the address (an errno), or 0 when it can. The socket is
    /// closed at once; SO_REUSEADDR as the server sets it, so a port left in TIME_WAIT binds.
    func bindError() -> Int32 {
        let probe = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return errno }
        defer { close(probe) }
        var one: Int32 = 1
        setsockopt(probe, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let length = socklen_t(isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        return withSocketAddress { bind(probe, $0, length) } == 0 ? 0 : errno
    }

    /// The address as the system's sockaddr, for the length of `body`.
    func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            _ = inet_pton(AF_INET6, host, &address.sin6_addr)
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        _ = inet_pton(AF_INET, host, &address.sin_addr)
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }
}
