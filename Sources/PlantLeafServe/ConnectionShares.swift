import PlantLeafCore
import Synchronization

/// How the connections the server takes are shared out, so that one client cannot take them
/// all: each address, and each network (one machine or site easily has many addresses in one),
/// holds at most its share of the main pool; a reserve at the top is kept for addresses that
/// hold next to no connection yet, so a newcomer still gets in while the main pool is taken. The library
/// asks before it takes a connection on (on its listening thread, one at a time) and says when
/// each starts and ends; the count is kept from those notices, so a refusal leaves nothing behind.
final class ConnectionShares: Sendable {
    private struct Held {
        var byAddress: [ClientAddress: Int] = [:]
        var mainByNetwork: [[UInt8]: Int] = [:]
        var reservedByNetwork: [[UInt8]: Int] = [:]
        var main = 0
        var reserved = 0
        /// By the library's connection handle, kept as a number: which address, in which pool.
        var connections: [UInt: (address: ClientAddress, inReserve: Bool)] = [:]
    }

    private enum Pool { case main, reserve }

    private let limits: HTTPServer.Limits
    private let held = Mutex(Held())

    init(limits: HTTPServer.Limits) { self.limits = limits }

    /// Whether a connection from `address` may be taken on now.
    func admits(_ address: ClientAddress) -> Bool {
        held.withLock { pool(for: address, in: $0) != nil }
    }

    func opened(_ connection: OpaquePointer, from address: ClientAddress) {
        held.withLock { held in
            // The listening thread asked a moment ago, and only ends of connections came since,
            // which free room: the answer is the same or better. Over the limits all the same
            // (the library took it without asking), it counts as reserved.
            let inReserve = pool(for: address, in: held) != .main
            held.connections[key(connection)] = (address, inReserve)
            held.byAddress[address, default: 0] += 1
            if inReserve {
                held.reserved += 1
                held.reservedByNetwork[address.network, default: 0] += 1
            } else {
                held.main += 1
                held.mainByNetwork[address.network, default: 0] += 1
            }
        }
    }

    func closed(_ connection: OpaquePointer) {
        held.withLock { held in
            guard let (address, inReserve) = held.connections.removeValue(forKey: key(connection)) else { return }
            Self.decrement(&held.byAddress, address)
            if inReserve {
                held.reserved -= 1
                Self.decrement(&held.reservedByNetwork, address.network)
            } else {
                held.main -= 1
                Self.decrement(&held.mainByNetwork, address.network)
            }
        }
    }

    private func pool(for address: ClientAddress, in held: Held) -> Pool? {
        let ofAddress = held.byAddress[address] ?? 0
        guard ofAddress < limits.connectionsPerAddress else { return nil }
        if held.main < limits.connections - limits.reservedConnections,
           held.mainByNetwork[address.network] ?? 0 < limits.connectionsPerNetwork {
            return .main
        }
        if ofAddress < limits.reservedPerAddress, held.reserved < limits.reservedConnections,
           held.reservedByNetwork[address.network] ?? 0 < limits.reservedPerNetwork {
            return .reserve
        }
        return nil
    }

    private static func decrement<Key: Hashable>(_ counts: inout [Key: Int], _ key: Key) {
        let left = (counts[key] ?? 1) - 1
        counts[key] = left > 0 ? left : nil
    }

    private func key(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    }
}
