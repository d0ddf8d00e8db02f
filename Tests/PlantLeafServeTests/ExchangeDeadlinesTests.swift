@testable import PlantLeafServe
import PlantLeafTestSupport
import Testing

/// The slow-client decisions of an HTTP exchange at each moment that matters, on a clock set by
/// hand, with no socket: requests late, streams whose client takes nothing.
@Suite final class ExchangeDeadlinesTests {
    let clock = ManualClock()
    var now: UInt64 { clock.nanoseconds() }
    /// With the server's defaults: 30 s for a request, 10 s for a stream's client to take something.
    /// A property, so that expectations may apply events to it.
    var deadlines = ExchangeDeadlines(limitSeconds: 30, streamLimitSeconds: 10)

    /// What the system says of every socket: nothing known.
    static func unknown(_ socket: Int32) -> ExchangeDeadlines.SendProgress? { nil }

    @Test func aRequestNotInWithinTheLimitIsDroppedOnceAndOneThatCameInIsNot() {
        deadlines.opened(1, socket: 11, at: now)
        deadlines.opened(2, socket: 12, at: now)
        deadlines.opened(3, socket: 13, at: now)
        clock.advance(seconds: 29)
        #expect(deadlines.requestStarted(1, "POST /api/classify") == 1)
        #expect(deadlines.requestStarted(2, "POST /api/classify") == 1)
        deadlines.requestIn(2)
        #expect(deadlines.tick(at: now, progress: Self.unknown).isEmpty)
        clock.advance(seconds: 0.75)
        #expect(deadlines.tick(at: now, progress: Self.unknown).isEmpty)
        clock.advance(seconds: 0.25)
        let drops = deadlines.tick(at: now, progress: Self.unknown).sorted { $0.connection < $1.connection }
        #expect(drops == [.init(connection: 1, socket: 11, request: "POST /api/classify", reason: .requestLate),
                          .init(connection: 3, socket: 13, request: nil, reason: .requestLate)])
        clock.advance(seconds: 60)
        #expect(deadlines.tick(at: now, progress: Self.unknown).isEmpty, "each is dropped once; the answered one is the server's time")
    }

    @Test func theNextRequestOnAConnectionStartsItsOwnClockWhenTheResponseWentOut() {
        deadlines.opened(1, socket: 11, at: now)
        _ = deadlines.requestStarted(1, "GET /")
        deadlines.requestIn(1)
        clock.advance(seconds: 100)
        deadlines.requestEnded(1, at: now)
        clock.advance(seconds: 29.875)
        #expect(deadlines.requestStarted(1, "GET /api/latest") == 2)
        #expect(deadlines.tick(at: now, progress: Self.unknown).isEmpty)
        clock.advance(seconds: 0.125)
        #expect(deadlines.tick(at: now, progress: Self.unknown) == [.init(connection: 1, socket: 11, request: "GET /api/latest", reason: .requestLate)])
    }

    @Test func aClosedConnectionIsForgottenSoItsSocketIsNeverTouched() {
        deadlines.opened(1, socket: 11, at: now)
        deadlines.closed(1)
        clock.advance(seconds: 31)
        #expect(deadlines.tick(at: now, progress: { _ in Issue.record("a closed socket was read"); return nil }).isEmpty)
        #expect(deadlines.requestStarted(1, "GET /") == 1, "an unknown connection counts its first request")
    }

    /// A stream viewer that acknowledges bytes, however few, keeps its stream; one that takes
    /// nothing while bytes wait for it is dropped after 10 s; one with nothing waiting (the
    /// stream waits for a frame) is not late.
    @Test func aStreamWhoseClientTakesNothingForTenSecondsIsDropped() {
        var progress: [Int32: ExchangeDeadlines.SendProgress] = [21: .init(acknowledged: 0, waiting: 0),
                                                                 22: .init(acknowledged: 0, waiting: 0),
                                                                 23: .init(acknowledged: 0, waiting: 0)]
        for connection in UInt(1)...3 {
            deadlines.opened(connection, socket: 20 + Int32(connection), at: now)
            _ = deadlines.requestStarted(connection, "GET /stream.mjpg")
            deadlines.requestIn(connection)
            deadlines.streamStarted(connection, at: now)
        }
        // 21 reads slowly, 22 stopped reading, 23 waits for a frame with nothing queued.
        for second in 1...20 {
            progress[21] = .init(acknowledged: UInt64(second), waiting: 200_000)
            progress[22] = .init(acknowledged: 5, waiting: 200_000)
            clock.advance(seconds: 1)
            let drops = deadlines.tick(at: now) { progress[$0] }
            // 22 last made progress at the tick of second 1 (5 acknowledged, from 0).
            #expect(drops == (second == 11 ? [.init(connection: 2, socket: 22, request: "GET /stream.mjpg", reason: .streamStalled)] : []),
                    "second \(second)")
        }
        deadlines.requestEnded(2, at: now)
        progress[21] = .init(acknowledged: 20, waiting: 0)
        clock.advance(seconds: 60)
        #expect(deadlines.tick(at: now) { progress[$0] } == [.init(connection: 2, socket: 22, request: nil, reason: .requestLate)],
                "once its response ended, the connection is back on the request clock")
    }

    @Test func aStreamWhoseSocketTheSystemCannotReadIsGivenTheBenefitOfTheDoubt() {
        deadlines.opened(1, socket: 11, at: now)
        deadlines.requestIn(1)
        deadlines.streamStarted(1, at: now)
        for _ in 0..<10 {
            clock.advance(seconds: 5)
            #expect(deadlines.tick(at: now, progress: Self.unknown).isEmpty)
        }
    }
}

/// The log throttle on a clock set by hand: a burst of a kind is written, the rest counted, and
/// the first line of a later window says how many were left out.
@Suite struct LogThrottleTests {
    let clock = ManualClock()

    @Test func aFloodOfOneKindIsWrittenABurstAWindowWithTheCountLeftOut() {
        let throttle = LogThrottle(windowSeconds: 10, burst: 3, clock: clock)
        let first = (1...5).map { throttle.admit("404 GET /x\($0)", kind: "404 GET") }
        #expect(first == ["404 GET /x1", "404 GET /x2", "404 GET /x3", nil, nil])
        #expect(throttle.admit("500 POST /api/classify", kind: "500 POST") == "500 POST /api/classify", "each kind has its own burst")
        clock.advance(seconds: 9.75)
        #expect(throttle.admit("404 GET /x6", kind: "404 GET") == nil)
        clock.advance(seconds: 0.25)
        #expect(throttle.admit("404 GET /x7", kind: "404 GET") == "404 GET /x7 (3 more like it left out since the last one shown)")
        #expect(throttle.admit("404 GET /x8", kind: "404 GET") == "404 GET /x8")
        clock.advance(seconds: 10)
        #expect(throttle.admit("404 GET /x9", kind: "404 GET") == "404 GET /x9", "nothing was left out in the last window")
    }

    @Test func kindsMadeUpByAClientCannotGrowTheTable() {
        let throttle = LogThrottle(windowSeconds: 10, burst: 1, clock: clock)
        #expect(throttle.admit("oldest", kind: "kind 0") == "oldest")
        #expect(throttle.admit("oldest again", kind: "kind 0") == nil)
        for index in 1...256 {
            clock.advance(seconds: 0.001)
            _ = throttle.admit("line", kind: "kind \(index)")
        }
        // The oldest kind was forgotten to make room: its next line is written as if new, without a count.
        #expect(throttle.admit("oldest back", kind: "kind 0") == "oldest back")
    }
}
