import Glibc
@testable import PlantLeafServe
import Testing

/// How the server's connections are shared out among clients, from the library's notices alone:
/// no socket, only addresses and connection handles the test makes up.
@Suite struct ConnectionSharesTests {
    /// 8 connections, 2 of them kept in reserve; 4 an address, 6 a network in the main pool; in
    /// the reserve, 2 an address and 1 a network.
    static var limits: HTTPServer.Limits {
        var limits = HTTPServer.Limits()
        limits.connections = 8
        limits.reservedConnections = 2
        limits.connectionsPerAddress = 4
        limits.connectionsPerNetwork = 6
        limits.reservedPerNetwork = 1
        limits.reservedPerAddress = 2
        return limits
    }

    static func address(_ text: String) -> ClientAddress {
        var ipv4 = sockaddr_in()
        ipv4.sin_family = sa_family_t(AF_INET)
        precondition(inet_pton(AF_INET, text, &ipv4.sin_addr) == 1)
        return withUnsafePointer(to: ipv4) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { ClientAddress($0, length: socklen_t(MemoryLayout<sockaddr_in>.size))! }
        }
    }

    static func mappedAddress(_ text: String) -> ClientAddress {
        var ipv6 = sockaddr_in6()
        ipv6.sin6_family = sa_family_t(AF_INET6)
        precondition(inet_pton(AF_INET6, text, &ipv6.sin6_addr) == 1)
        return withUnsafePointer(to: ipv6) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { ClientAddress($0, length: socklen_t(MemoryLayout<sockaddr_in6>.size))! }
        }
    }

    /// The library's handle for connection `number`, as the notices carry it.
    static func connection(_ number: Int) -> OpaquePointer { OpaquePointer(bitPattern: number * 16)! }

    /// Asks, as the library does, and takes the connection on when admitted.
    static func take(_ shares: ConnectionShares, _ address: ClientAddress, as number: Int) -> Bool {
        guard shares.admits(address) else { return false }
        shares.opened(connection(number), from: address)
        return true
    }

    @Test func oneAddressOrNetworkCannotTakeEveryConnectionAndANewcomerStillGetsIn() {
        let shares = ConnectionShares(limits: Self.limits)
        let first = Self.address("10.0.0.1"), neighbour = Self.address("10.0.0.2")
        let newcomer = Self.address("192.168.1.9"), another = Self.address("172.16.0.1"), late = Self.address("172.17.0.1")
        #expect((1...5).map { Self.take(shares, first, as: $0) } == [true, true, true, true, false], "4 an address")
        #expect((6...8).map { Self.take(shares, neighbour, as: $0) } == [true, true, false],
                "the main pool (6) is full, and the neighbour already holds the reserve's 2 an address")
        #expect(Self.take(shares, newcomer, as: 9), "the reserve takes a newcomer in")
        #expect(!Self.take(shares, newcomer, as: 10), "1 a network in the reserve")
        #expect(Self.take(shares, another, as: 11))
        #expect(!Self.take(shares, late, as: 12), "the reserve is full")
        shares.closed(Self.connection(1))
        #expect(Self.take(shares, late, as: 13), "a connection's end gives its place back")
        shares.closed(Self.connection(99))
        #expect(!Self.take(shares, Self.address("172.18.0.1"), as: 14), "the end of a connection never counted changes nothing")
    }

    @Test func anIPv4AddressMappedIntoIPv6IsTheSameClient() {
        let shares = ConnectionShares(limits: Self.limits)
        #expect(Self.mappedAddress("::ffff:10.0.0.1") == Self.address("10.0.0.1"))
        for number in 1...2 { #expect(Self.take(shares, Self.address("10.0.0.1"), as: number)) }
        for number in 3...4 { #expect(Self.take(shares, Self.mappedAddress("::ffff:10.0.0.1"), as: number)) }
        #expect(!Self.take(shares, Self.mappedAddress("::ffff:10.0.0.1"), as: 5))
    }

    @Test func aNetworkHoldsAtMostItsShareOfTheMainPool() {
        var limits = Self.limits
        limits.connections = 20
        let shares = ConnectionShares(limits: limits)
        for (index, host) in (1...6).enumerated() { #expect(Self.take(shares, Self.address("10.0.0.\(host)"), as: index + 1)) }
        #expect(Self.take(shares, Self.address("10.0.0.7"), as: 7), "past its share of the main pool, the network goes to the reserve")
        #expect(!Self.take(shares, Self.address("10.0.0.8"), as: 8), "and holds 1 of it")
        #expect(Self.take(shares, Self.address("10.0.1.1"), as: 9), "the next network has its own share")
    }
}
