/// Every decision of the link to the broker, as a value: what to do after each event
/// (connected, lost, publish asked, acknowledged, a pass of libmosquitto's loop at time T),
/// with time always given, never read. `MQTTConnection` drives libmosquitto from it on its
/// network thread, under its lock; tests drive it with a clock of their own and no socket.
///
/// What it decides:
/// - back-off: an attempt that fails waits 1 s before the next, then twice as long each time up
///   to 60 s; a connection that was accepted starts again from 1 s;
/// - a broker that takes the connection and sends no answer in ``answerTimeout`` is given up on;
/// - only the newest reading waits while the broker is away: a newer one takes its place;
/// - QoS 1 bookkeeping: a reading goes only while connected and while fewer than
///   ``maximumUnacknowledged`` messages await the broker's PUBACK (the retained set sent on each
///   connection counts too);
/// - closing: the reading still waiting, then `offline`, then a wait for the acknowledgements
///   until the close deadline, then the disconnect;
/// - what is reported: each change once, a failure repeated the same way is no news.
struct MQTTLink: Sendable {
    /// One message to publish with QoS 1.
    struct Outgoing: Sendable, Equatable {
        var topic: String
        var payload: [UInt8]
        var retain: Bool
    }

    /// What the broker answered to the first connection attempt that got that far.
    enum FirstAnswer: Equatable, Sendable {
        case accepted
        case refused(reason: String)
        case tlsFailed(reason: String)
        case unknownHost(reason: String)
        /// The broker could not be reached; retried in the background.
        case unreachable
    }

    /// Why a connection attempt failed before the broker could answer.
    enum AttemptFailure: Equatable, Sendable {
        /// The host name does not resolve, for good (not "try again").
        case unknownHost(reason: String)
        /// The TLS handshake failed.
        case tlsFailed(reason: String)
        /// Anything else (connection refused, no route, a name server not reachable yet): retried.
        case unreachable(reason: String)
    }

    /// How a connection ended, as libmosquitto's disconnect callback says.
    enum Ending: Equatable, Sendable {
        /// Our own disconnect, or the end of a refused connection (the refusal was reported).
        case expected
        case tlsFailed(reason: String)
        case failed(reason: String)
    }

    /// What the network thread is to do now.
    enum Action: Equatable, Sendable {
        /// Hand these messages to libmosquitto (QoS 1); they are already counted as unacknowledged.
        case publish([Outgoing])
        /// Disconnect the connection.
        case disconnect
        /// This connection is over: wait until this time (or a stop), then connect again.
        case waitUntil(UInt64)
        /// The network thread ends: stopped, or a failure retrying cannot mend.
        case end
    }

    /// QoS 1 messages handed to libmosquitto and not yet acknowledged, at most, before readings
    /// wait in the slot instead: libmosquitto would otherwise queue every QoS 1 message without
    /// limit while the broker is slow.
    static let maximumUnacknowledged = 8
    /// Events kept for `takeEvents`; older ones are dropped so a caller that never asks costs nothing.
    static let maximumEvents = 64
    /// Reconnection back-off, in seconds: the first delay, doubled after each failed attempt up to the last.
    static let firstReconnectDelay: UInt64 = 1
    static let lastReconnectDelay: UInt64 = 60
    /// Seconds a broker that took the connection has to answer it (CONNACK): one that says
    /// nothing (another service on the port, a broker stuck) is given up on and retried.
    static let answerTimeout: UInt64 = 5

    let broker: String
    /// Published retained each time a connection is accepted: `online`, then the discovery configs.
    let retainedOnConnect: [Outgoing]
    /// Published retained when closing.
    let offline: Outgoing

    private(set) var connected = false
    private(set) var firstAnswer: FirstAnswer?
    /// When the first attempt got as far as sending CONNECT (name resolved, TCP and TLS up): the
    /// broker's answer is a round trip away, or never comes.
    private(set) var connectSentAt: UInt64?
    private(set) var closing = false
    /// When a closing connection stops waiting for acknowledgements.
    private(set) var closeDeadline: UInt64 = 0
    private(set) var newestReading: [Outgoing]?
    private(set) var unacknowledged = 0
    private var events: [MQTTEvent] = []
    /// The delay before the next attempt, in seconds.
    private var reconnectDelay = MQTTLink.firstReconnectDelay
    /// The retained set is still to be sent on this connection.
    private var retainedSetDue = false
    /// This connection was accepted (it may have been lost since).
    private var acceptedThisConnection = false
    /// When this connection's broker must have answered.
    private var answerDeadline: UInt64 = 0
    /// The broker sent a PUBLISH on this connection.
    private var unsolicitedPublish = false
    /// `offline` has been handed over on this closing connection.
    private var offlineSent = false
    /// The last failed attempt's event, so retries failing the same way are reported once.
    private var lastFailure: MQTTEvent?
    /// Whether a TLS failure was reported since the last connection: OpenSSL logs several lines
    /// for one failure, the first says the most.
    private var tlsFailureReported = false

    init(broker: String, retainedOnConnect: [Outgoing], offline: Outgoing) {
        self.broker = broker
        self.retainedOnConnect = retainedOnConnect
        self.offline = offline
    }

    // MARK: Events from the network thread

    /// An attempt on a fresh client begins.
    mutating func attemptBegins() {
        unsolicitedPublish = false
        retainedSetDue = false
        acceptedThisConnection = false
        offlineSent = false
    }

    /// No client could be made for the attempt.
    mutating func clientNotMade(reason: String, at now: UInt64) -> Action {
        attemptBegins()
        record(.cannotConnect(broker: broker, reason: reason))
        return connectionOver(at: now)
    }

    /// The attempt failed before the broker could answer: wait and retry, or end for a failure
    /// retrying does not mend (a TLS handshake; a host that does not exist, on the first attempt).
    mutating func attemptFailed(_ failure: AttemptFailure, at now: UInt64) -> Action {
        switch failure {
        case .unknownHost(let reason) where firstAnswer == nil:
            firstAnswer = .unknownHost(reason: reason)
            return .end
        case .tlsFailed(let reason):
            tlsFailed(reason: reason)
            return .end
        case .unknownHost(let reason), .unreachable(let reason):
            let event = MQTTEvent.cannotConnect(broker: broker, reason: reason)
            // After "lost ... retrying", a broker still away is no news.
            if event != lastFailure, !MQTTLink.isLoss(lastFailure) { record(event) }
            lastFailure = event
            if firstAnswer == nil { firstAnswer = .unreachable }
            return connectionOver(at: now)
        }
    }

    /// CONNECT is on its way: the broker has ``answerTimeout`` to answer.
    mutating func connectSent(at now: UInt64) {
        if connectSentAt == nil { connectSentAt = now }
        answerDeadline = now + MQTTLink.answerTimeout * 1_000_000_000
    }

    /// After each pass of libmosquitto's loop on a connection (`loopFailed`: the pass said the
    /// connection is gone), and whenever else the thread looks: what to do on it now.
    mutating func tick(at now: UInt64, loopFailed: Bool = false) -> [Action] {
        var actions: [Action] = []
        if retainedSetDue {
            retainedSetDue = false
            actions.append(.publish(retainedOnConnect))
        }
        acceptedThisConnection = acceptedThisConnection || connected
        if closing { return actions + closingStep(at: now, loopFailed: loopFailed) }
        if let reading = takeNewestReadingIfSendable() { actions.append(.publish(reading)) }
        if unsolicitedPublish {
            connected = false
            record(.unsolicitedMessage(broker: broker))
            return actions + [.disconnect, connectionOver(at: now)]
        }
        if !acceptedThisConnection, !loopFailed, now > answerDeadline {
            let event = MQTTEvent.cannotConnect(broker: broker, reason: "it took the connection but sent no answer in \(MQTTLink.answerTimeout) s")
            if event != lastFailure { record(event) }
            lastFailure = event
            if firstAnswer == nil { firstAnswer = .unreachable }
            return actions + [.disconnect, connectionOver(at: now)]
        }
        // The disconnect callback has reported why.
        if loopFailed { return actions + [tlsFailureReported ? .end : connectionOver(at: now)] }
        return actions
    }

    /// Closing: the reading still waiting, then `offline`, then the acknowledgements, until the
    /// close deadline.
    private mutating func closingStep(at now: UInt64, loopFailed: Bool) -> [Action] {
        guard acceptedThisConnection else { return [.end] }
        guard connected, !loopFailed, now < closeDeadline else {
            connected = false
            return [.disconnect, .end]
        }
        if newestReading != nil {
            return takeNewestReadingIfSendable().map { [.publish($0)] } ?? []
        }
        if !offlineSent {
            offlineSent = true
            unacknowledged += 1
            return [.publish([offline])]
        }
        guard unacknowledged == 0 else { return [] }
        connected = false
        return [.disconnect, .end]
    }

    /// The connection is over: the back-off says when to try again.
    private mutating func connectionOver(at now: UInt64) -> Action {
        if acceptedThisConnection { reconnectDelay = MQTTLink.firstReconnectDelay }
        let retryAt = now + reconnectDelay * 1_000_000_000
        reconnectDelay = min(reconnectDelay * 2, MQTTLink.lastReconnectDelay)
        return .waitUntil(retryAt)
    }

    // MARK: Events from libmosquitto's callbacks

    /// The broker accepted the connection.
    mutating func accepted() {
        connected = true
        lastFailure = nil
        tlsFailureReported = false
        if firstAnswer == nil { firstAnswer = .accepted }
        record(.connected(broker: broker))
        // Each connection has a fresh client, so nothing of an earlier one is in flight: only
        // the retained set the next tick sends.
        unacknowledged = retainedOnConnect.count
        retainedSetDue = true
    }

    /// The broker answered and refused.
    mutating func refused(reason: String) {
        if firstAnswer == nil { firstAnswer = .refused(reason: reason) }
        let event = MQTTEvent.refused(broker: broker, reason: reason)
        if event != lastFailure { record(event) }
        lastFailure = event
    }

    mutating func ended(_ ending: Ending) {
        let wasConnected = connected
        connected = false
        switch ending {
        case .expected:
            return
        case .tlsFailed(let reason):
            tlsFailed(reason: reason)
        case .failed(let reason) where wasConnected:
            let event = MQTTEvent.lost(broker: broker, reason: reason)
            record(event)
            lastFailure = event
        case .failed(let reason):
            let event = MQTTEvent.cannotConnect(broker: broker, reason: reason)
            if event != lastFailure { record(event) }
            lastFailure = event
        }
    }

    /// The broker acknowledged a message (PUBACK).
    mutating func acknowledged() {
        unacknowledged = max(unacknowledged - 1, 0)
    }

    /// The broker sent a PUBLISH, though PlantLeaf subscribes to nothing: the next tick drops the connection.
    mutating func unsolicitedPublishReceived() {
        unsolicitedPublish = true
    }

    /// A failed handshake (MOSQ_ERR_TLS, errno EPROTO, an OpenSSL error logged): not retried.
    mutating func tlsFailed(reason: String) {
        guard !tlsFailureReported else { return }
        tlsFailureReported = true
        if firstAnswer == nil { firstAnswer = .tlsFailed(reason: reason) }
        record(.tlsFailed(broker: broker, reason: reason))
    }

    /// libmosquitto did not take a message the link had counted as unacknowledged.
    mutating func notPublished(topic: String, reason: String) {
        unacknowledged = max(unacknowledged - 1, 0)
        record(.notPublished(topic: topic, reason: reason))
    }

    // MARK: Events from the owner

    /// Keeps `reading` as the newest, in place of any older one waiting (which is dropped);
    /// false, and nothing kept, once closing.
    mutating func publishAsked(_ reading: [Outgoing]) -> Bool {
        guard !closing else { return false }
        newestReading = reading
        return true
    }

    /// The newest reading if it may go now, its messages counted as unacknowledged.
    mutating func takeNewestReadingIfSendable() -> [Outgoing]? {
        guard connected, unacknowledged < MQTTLink.maximumUnacknowledged, let reading = newestReading else { return nil }
        newestReading = nil
        unacknowledged += reading.count
        return reading
    }

    /// Stop: close within `timeout` seconds. False when already closing.
    mutating func stopAsked(timeout: Double, at now: UInt64) -> Bool {
        guard !closing else { return false }
        closing = true
        closeDeadline = now + UInt64(max(timeout, 0) * 1e9)
        return true
    }

    var hasEvents: Bool { !events.isEmpty }

    /// The connection changes since the last call, oldest first.
    mutating func takeEvents() -> [MQTTEvent] {
        defer { events.removeAll() }
        return events
    }

    private mutating func record(_ event: MQTTEvent) {
        if events.count == MQTTLink.maximumEvents { events.removeFirst() }
        events.append(event)
    }

    private static func isLoss(_ event: MQTTEvent?) -> Bool {
        if case .lost? = event { return true }
        return false
    }
}
