@testable import PlantLeafMQTT
import PlantLeafTestSupport
import Testing

/// The link's decisions at each moment that matters, on a clock set by hand, with no broker and
/// no socket: back-off, the broker that never answers, the newest-reading slot, QoS 1
/// bookkeeping, closing and what is reported.
@Suite final class MQTTLinkTests {
    static let broker = "broker.local:1883"
    static let online = MQTTLink.Outgoing(topic: "plants/availability", payload: Array("online".utf8), retain: true)
    static let discovery = MQTTLink.Outgoing(topic: "homeassistant/sensor/x/config", payload: Array("{}".utf8), retain: true)
    static let offline = MQTTLink.Outgoing(topic: "plants/availability", payload: Array("offline".utf8), retain: true)

    let clock = ManualClock()
    /// The link under test; a property, so that expectations may apply events to it.
    var link = MQTTLinkTests.makeLink()

    static func makeLink() -> MQTTLink {
        MQTTLink(broker: broker, retainedOnConnect: [online, discovery], offline: offline)
    }

    /// A reading of `messages` messages, told apart by `frame`.
    static func reading(_ frame: Int, messages: Int = 5) -> [MQTTLink.Outgoing] {
        (0..<messages).map { MQTTLink.Outgoing(topic: "plants/topic\($0)", payload: Array("frame \(frame)".utf8), retain: $0 > 0) }
    }

    var now: UInt64 { clock.nanoseconds() }

    func seconds(_ count: Double) -> UInt64 { now + UInt64(count * 1e9) }

    /// An attempt on a fresh client whose CONNECT went out and was accepted; the tick that follows.
    func connect() -> [MQTTLink.Action] {
        link.attemptBegins()
        link.connectSent(at: now)
        link.accepted()
        return link.tick(at: now)
    }

    @Test func failedAttemptsBackOffFromOneSecondDoublingToSixty() {
        var waits: [Double] = []
        for _ in 0..<9 {
            link.attemptBegins()
            guard case .waitUntil(let time) = link.attemptFailed(.unreachable(reason: "connection refused"), at: now) else {
                Issue.record("an unreachable broker is retried")
                return
            }
            waits.append(Double(time - now) / 1e9)
            clock.advance(seconds: waits.last!)
        }
        #expect(waits == [1, 2, 4, 8, 16, 32, 60, 60, 60])
        // Reported once: the same failure again is no news.
        #expect(link.takeEvents() == [.cannotConnect(broker: Self.broker, reason: "connection refused")])
        #expect(link.firstAnswer == .unreachable)
    }

    @Test func aConnectionThatWasAcceptedStartsTheBackOffAgain() {
        for _ in 0..<4 {
            link.attemptBegins()
            _ = link.attemptFailed(.unreachable(reason: "connection refused"), at: now)
        }
        _ = connect()
        link.ended(.failed(reason: "connection lost"))
        #expect(link.tick(at: now, loopFailed: true) == [.waitUntil(seconds(1))])
        #expect(link.clientNotMade(reason: "out of memory", at: now) == .waitUntil(seconds(2)), "a client not made backs off too")
        link.attemptBegins()
        #expect(link.attemptFailed(.unreachable(reason: "connection refused"), at: now) == .waitUntil(seconds(4)))
        // After "lost", the broker still being away is not reported again.
        #expect(link.takeEvents() == [.cannotConnect(broker: Self.broker, reason: "connection refused"),
                                       .connected(broker: Self.broker),
                                       .lost(broker: Self.broker, reason: "connection lost"),
                                       .cannotConnect(broker: Self.broker, reason: "out of memory")])
    }

    @Test func aBrokerThatTakesTheConnectionAndNeverAnswersIsGivenUpOnAfterFiveSeconds() {
        link.attemptBegins()
        link.connectSent(at: now)
        #expect(link.connectSentAt == now)
        clock.advance(seconds: 5)
        #expect(link.tick(at: now).isEmpty, "five seconds are the broker's")
        #expect(link.tick(at: now + 1, loopFailed: true) == [.waitUntil(now + 1 + 1_000_000_000)], "a loop failure is not a silent broker")
        link.attemptBegins()
        let sentAgain = now
        link.connectSent(at: sentAgain)
        clock.advance(seconds: 5.001)
        #expect(link.tick(at: now) == [.disconnect, .waitUntil(seconds(2))])
        #expect(link.firstAnswer == .unreachable)
        #expect(link.connectSentAt == sentAgain - 5_000_000_000, "the first CONNECT is when the caller started waiting for the answer")
        #expect(link.takeEvents() == [.cannotConnect(broker: Self.broker, reason: "it took the connection but sent no answer in 5 s")])
        #expect(!link.connected)
    }

    @Test func onConnectTheRetainedSetGoesFirstThenTheNewestReading() {
        for frame in 1...10 { #expect(link.publishAsked(Self.reading(frame)) == true) }
        #expect(link.takeNewestReadingIfSendable() == nil, "nothing goes before the broker accepts")
        #expect(connect() == [.publish([Self.online, Self.discovery]), .publish(Self.reading(10))])
        #expect(link.unacknowledged == 2 + 5)
        #expect(link.firstAnswer == .accepted)
        #expect(link.takeEvents() == [.connected(broker: Self.broker)])
        #expect(link.tick(at: now).isEmpty, "older readings were dropped, never queued")
    }

    @Test func readingsWaitWhileEightMessagesAreUnacknowledgedAndOnlyTheNewestGoesWhenThereIsRoom() {
        _ = connect()
        for _ in 0..<2 { link.acknowledged() }
        #expect(link.unacknowledged == 0)
        #expect(link.publishAsked(Self.reading(1, messages: 6)) == true)
        #expect(link.takeNewestReadingIfSendable() == Self.reading(1, messages: 6))
        #expect(link.publishAsked(Self.reading(2, messages: 6)) == true)
        #expect(link.takeNewestReadingIfSendable() == Self.reading(2, messages: 6), "6 < 8: room for one more reading")
        #expect(link.unacknowledged == 12)
        #expect(link.publishAsked(Self.reading(3, messages: 6)) == true)
        #expect(link.publishAsked(Self.reading(4, messages: 6)) == true)
        #expect(link.tick(at: now).isEmpty)
        for _ in 0..<4 { link.acknowledged() }
        #expect(link.tick(at: now).isEmpty, "8 still unacknowledged")
        link.acknowledged()
        #expect(link.tick(at: now) == [.publish(Self.reading(4, messages: 6))])
        #expect(link.unacknowledged == 13)
        for _ in 0..<20 { link.acknowledged() }
        #expect(link.unacknowledged == 0, "never below zero")
        link.notPublished(topic: "plants/image", reason: "payload too large")
        #expect(link.unacknowledged == 0)
        #expect(link.takeEvents().last == .notPublished(topic: "plants/image", reason: "payload too large"))
    }

    @Test func aLostConnectionKeepsTheNewestReadingForTheNextOne() {
        _ = connect()
        link.ended(.failed(reason: "connection reset by peer"))
        #expect(link.publishAsked(Self.reading(1)) == true)
        #expect(link.publishAsked(Self.reading(2)) == true)
        #expect(link.tick(at: now, loopFailed: true) == [.waitUntil(seconds(1))])
        clock.advance(seconds: 1)
        #expect(connect() == [.publish([Self.online, Self.discovery]), .publish(Self.reading(2))])
        #expect(link.unacknowledged == 7, "the earlier connection's count went with its client")
        #expect(link.takeEvents() == [.connected(broker: Self.broker), .lost(broker: Self.broker, reason: "connection reset by peer"),
                                       .connected(broker: Self.broker)])
    }

    @Test func aConnectionThatEndsBeforeTheAnswerIsAFailedAttemptReportedOnce() {
        for delay in [1.0, 2, 4] {
            link.attemptBegins()
            link.connectSent(at: now)
            link.ended(.failed(reason: "connection reset by peer"))
            #expect(link.tick(at: now, loopFailed: true) == [.waitUntil(seconds(delay))])
        }
        link.ended(.expected)
        #expect(link.takeEvents() == [.cannotConnect(broker: Self.broker, reason: "connection reset by peer")],
                "our own disconnect is no news")
        #expect(link.connected == false)
    }

    @Test func aRefusalIsReportedOnceAndIsTheFirstAnswer() {
        for _ in 0..<3 {
            link.attemptBegins()
            link.connectSent(at: now)
            link.refused(reason: "not authorised")
            link.ended(.expected)
            #expect(link.tick(at: now, loopFailed: true).count == 1)
        }
        #expect(link.firstAnswer == .refused(reason: "not authorised"))
        #expect(link.takeEvents() == [.refused(broker: Self.broker, reason: "not authorised")])
    }

    @Test func anUnknownHostEndsTheFirstAttemptButIsRetriedOnceTheBrokerWasReached() {
        link.attemptBegins()
        #expect(link.attemptFailed(.unknownHost(reason: "name or service not known"), at: now) == .end)
        #expect(link.firstAnswer == .unknownHost(reason: "name or service not known"))

        link = Self.makeLink()
        _ = connect()
        link.ended(.failed(reason: "connection lost"))
        _ = link.tick(at: now, loopFailed: true)
        link.attemptBegins()
        #expect(link.attemptFailed(.unknownHost(reason: "name or service not known"), at: now) == .waitUntil(seconds(2)))
        link.attemptBegins()
        #expect(link.attemptFailed(.unreachable(reason: "temporary failure in name resolution"), at: now) == .waitUntil(seconds(4)))
    }

    @Test func aTLSFailureIsNotRetriedAndIsReportedOnce() {
        link.attemptBegins()
        link.tlsFailed(reason: "certificate verify failed")
        #expect(link.attemptFailed(.tlsFailed(reason: "a TLS error occurred"), at: now) == .end)
        #expect(link.firstAnswer == .tlsFailed(reason: "certificate verify failed"))
        #expect(link.takeEvents() == [.tlsFailed(broker: Self.broker, reason: "certificate verify failed")])

        // A handshake that fails once connected (the loop says so) ends the link too.
        link = Self.makeLink()
        _ = connect()
        link.ended(.tlsFailed(reason: "unexpected eof"))
        #expect(link.tick(at: now, loopFailed: true) == [.end])
    }

    @Test func aBrokerThatSendsAMessageIsDroppedAndRetried() {
        _ = connect()
        link.unsolicitedPublishReceived()
        #expect(link.tick(at: now) == [.disconnect, .waitUntil(seconds(1))])
        #expect(!link.connected)
        #expect(link.takeEvents() == [.connected(broker: Self.broker), .unsolicitedMessage(broker: Self.broker)])
        link.attemptBegins()
        link.connectSent(at: now)
        #expect(link.tick(at: now).isEmpty, "the next connection starts clean")
    }

    @Test func closingSendsTheWaitingReadingThenOfflineThenWaitsForTheAcknowledgements() {
        _ = connect()
        #expect(link.publishAsked(Self.reading(1, messages: 6)) == true)
        #expect(link.stopAsked(timeout: 2, at: now) == true)
        #expect(link.stopAsked(timeout: 2, at: now) == false, "a second stop changes nothing")
        #expect(link.publishAsked(Self.reading(2)) == false, "ignored once closing")
        #expect(link.tick(at: now) == [.publish(Self.reading(1, messages: 6))])
        #expect(link.tick(at: now) == [.publish([Self.offline])])
        #expect(link.unacknowledged == 2 + 6 + 1)
        for _ in 0..<8 { link.acknowledged() }
        clock.advance(seconds: 1.9)
        #expect(link.tick(at: now).isEmpty, "still waiting for the last acknowledgement")
        link.acknowledged()
        #expect(link.tick(at: now) == [.disconnect, .end])
        #expect(!link.connected)
    }

    @Test func closingStopsWaitingAtItsDeadline() {
        _ = connect()
        #expect(link.stopAsked(timeout: 2, at: now) == true)
        #expect(link.tick(at: now) == [.publish([Self.offline])])
        clock.advance(seconds: 2)
        #expect(link.tick(at: now) == [.disconnect, .end], "the broker never acknowledged")

        link = Self.makeLink()
        link.attemptBegins()
        link.connectSent(at: now)
        #expect(link.stopAsked(timeout: 2, at: now) == true)
        #expect(link.tick(at: now) == [.end], "nothing to close before the broker answered")
    }

    @Test func onlyTheLatestSixtyFourEventsAreKept() {
        for index in 0..<70 { link.notPublished(topic: "plants/\(index)", reason: "no connection") }
        let events = link.takeEvents()
        #expect(events.count == 64)
        #expect(events.first == .notPublished(topic: "plants/6", reason: "no connection"))
        #expect(link.takeEvents().isEmpty)
    }
}
