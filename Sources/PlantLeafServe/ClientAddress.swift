import PlantLeafCore
import Glibc
import PlantLeafSupport

/// A client's IP address as bytes (an IPv4 address mapped into IPv6 counted as IPv4), and the
/// network it is in: its /24 for IPv4, its /64 for IPv6, the blocks one site is usually given.
struct ClientAddress: Hashable, Sendable, CustomStringConvertible {
    let bytes: [UInt8]

    /// The network's leading bytes.
    var network: [UInt8] { Array(bytes.prefix(bytes.count == 4 ? 3 : 8)) }

    init?(_ address: UnsafePointer<sockaddr>, length: socklen_t) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET where length >= socklen_t(MemoryLayout<sockaddr_in>.size):
            let ipv4 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self)
            bytes = withUnsafeBytes(of: ipv4.sin_addr) { Array($0) }
        case AF_INET6 where length >= socklen_t(MemoryLayout<sockaddr_in6>.size):
            let ipv6 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self)
            let all = withUnsafeBytes(of: ipv6.sin6_addr) { Array($0) }
            let mappedPrefix: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]
            bytes = Array(all.prefix(12)) == mappedPrefix ? Array(all.suffix(4)) : all
        default:
            return nil
        }
    }

    /// The address at the other end of a connected socket.
    init?(peerOf socket: Int32) {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found: ClientAddress? = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                getpeername(socket, address, &length) == 0 ? ClientAddress(address, length: length) : nil
            }
        }
        guard let found else { return nil }
        self = found
    }

    /// The port this end of a connected socket is bound to; 0 when it cannot be told.
    static func localPort(of socket: Int32) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> UInt16 in
                guard getsockname(socket, address, &length) == 0 else { return 0 }
                switch Int32(address.pointee.sa_family) {
                case AF_INET: return UInt16(bigEndian: UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self).sin_port)
                case AF_INET6: return UInt16(bigEndian: UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self).sin6_port)
                default: return 0
                }
            }
        }
    }

    var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        return bytes.withUnsafeBytes { raw in inet_ntop(family, raw.baseAddress, &text, socklen_t(text.count)) != nil ? stringFromCBuffer(text) : "?" }
    }
}
