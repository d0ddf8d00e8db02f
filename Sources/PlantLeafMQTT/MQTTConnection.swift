import PlantLeafCore
import CMosquitto
import Glibc
import PlantLeafSupport

/// The link to the broker: a network thread of PlantLeaf's own that connects, runs
/// libmosquitto's loop (mosquitto_loop) and reconnects with back-off, and the state it shares
/// with `publish` callers.
///
/// Why PlantLeaf's own thread rather than libmosquitto's (mosquitto_loop_start): in libmosquitto
/// 2.0 a TLS connection to a port that refuses spins that thread at full speed instead of backing
/// off, and a broker's PUBLISH packets with QoS 2 are kept until the broker releases them, without
/// limit, in a client that lives as long as the thread. Here each connection gets a fresh client,
/// a connection that fails waits 1 s, then twice as long each time up to 60 s, whatever the
/// scheme, and a connection on which the broker sends any PUBLISH (PlantLeaf subscribes to
/// nothing) is dropped at once, its client and whatever it kept destroyed.
///
/// `publish` puts the reading in a one-reading slot and hands it to libmosquitto at once if the
/// link allows (the network thread does when acknowledgements make room): only while connected
/// and while fewer than ``maximumUnacknowledged`` messages await the broker's PUBACK, as
/// libmosquitto would otherwise queue every QoS 1 message without limit while the broker is slow.
///
/// libmosquitto calls the callbacks below on the network thread, within mosquitto_loop and
/// mosquitto_connect, while holding its own locks; they only take `link`, never `currentClient`,
/// and no libmosquitto call is made with `link` held.
///
/// Sendable unchecked because of the libmosquitto clients, C pointers the compiler cannot
/// follow: the current one is used from other threads only under `currentClient`'s lock (and
/// libmosquitto, told so by mosquitto_threaded_set, takes its own locks inside), the first one
/// is made here and used by the network thread alone once it starts, and `networkThread` is
/// touched only by the owner's `start` and `stop`. All else that threads share is in `link`.
final class MQTTConnection: @unchecked Sendable {
    /// One message to publish with QoS 1.
    struct Outgoing: Sendable, Equatable {
        var topic: String
        var payload: [UInt8]
        var retain: Bool
    }

    /// What the broker answered to the first connection attempt that got that far.
    enum FirstAnswer: Equatable {
        case accepted
        case refused(reason: String)
        case tlsFailed(reason: String)
        case unknownHost(reason: String)
        /// The broker could not be reached; retried in the background.
        case unreachable
    }

    /// QoS 1 messages handed to libmosquitto and not yet acknowledged, at most, before readings
    /// wait in the slot instead.
    static let maximumUnacknowledged = 8
    /// Messages one reading may be made of, at most (result, state, attributes, details, problem, image).
    static let maximumMessagesPerReading = 6
    /// Events kept for `takeEvents`; older ones are dropped so a caller that never asks costs nothing.
    static let maximumEvents = 64
    /// Reconnection back-off: the first delay, doubled after each failed attempt up to the last.
    static let firstReconnectDelay: UInt32 = 1
    static let lastReconnectDelay: UInt32 = 60
    /// Seconds between PINGREQs on an idle link; a broker silent for 1.5 times this is taken as gone.
    static let keepAlive: Int32 = 30
    /// Seconds a broker that took the connection has to answer it (CONNACK): one that says
    /// nothing (another service on the port, a broker stuck) is given up on and retried.
    static let answerTimeout: UInt64 = 5
    /// The longest a loop pass waits for the socket: how late a stop is seen, at most, on a quiet link.
    static let loopIntervalMilliseconds: Int32 = 100

    private let settings: MQTTSettings
    /// Published retained each time a connection is accepted: `online`, then the discovery configs.
    private let retainedOnConnect: [HomeAssistantDiscovery.Message]
    /// The first client, made by init so that set-up errors show there; later ones by the thread.
    private var firstClient: OpaquePointer?
    private var networkThread: WorkerThread?

    /// The client of the connection being run; nil between connections. Held while the client
    /// is used from outside the network thread, and by that thread while it sets or clears the
    /// client, so a client is never destroyed in use.
    private let currentClient = Lock<OpaquePointer?>(nil)

    /// What the network thread, the callbacks and `publish` callers share.
    private struct Link {
        var connected = false
        /// Set by the connect callback: the retained set is still to be sent on this connection.
        var retainedSetDue = false
        var newestReading: [Outgoing]?
        var unacknowledged = 0
        var events: [MQTTEvent] = []
        var firstAnswer: FirstAnswer?
        /// When the first attempt got as far as sending CONNECT (name resolved, TCP and TLS up),
        /// monotonic nanoseconds: the broker's answer is a round trip away, or never comes.
        var connectSentAt: UInt64?
        var closing = false
        /// When a closing connection stops waiting for acknowledgements.
        var closeDeadline: UInt64 = 0
        /// The last failed attempt's event, so retries failing the same way are reported once.
        var lastFailure: MQTTEvent?
        /// Whether a TLS failure was reported since the last connection: OpenSSL logs several lines
        /// for one failure, the first says the most.
        var tlsFailureReported = false
        /// Whether the broker sent a PUBLISH on this connection.
        var unsolicitedPublish = false
        var networkThreadRunning = false

        mutating func record(_ event: MQTTEvent) {
            if events.count == MQTTConnection.maximumEvents { events.removeFirst() }
            events.append(event)
        }

        /// The newest reading if it may go now, its messages counted as unacknowledged.
        mutating func takeNewestReadingIfSendable() -> [Outgoing]? {
            guard connected, unacknowledged < MQTTConnection.maximumUnacknowledged, let reading = newestReading else { return nil }
            newestReading = nil
            unacknowledged += reading.count
            return reading
        }
    }

    private let link = Lock(Link())

    /// Makes and configures the first client; nothing is sent until `start`.
    init(settings: MQTTSettings, retainedOnConnect: [HomeAssistantDiscovery.Message]) throws(MQTTError) {
        self.settings = settings
        self.retainedOnConnect = retainedOnConnect
        firstClient = try makeClient()
    }

    deinit {
        stop(timeout: 0)
        if let firstClient { pl_mosquitto_destroy(firstClient) }
    }

    /// A client configured for `settings`, its callbacks pointing at this object.
    private func makeClient() throws(MQTTError) -> OpaquePointer {
        // No client id: libmosquitto makes a random one, so two cameras never take over each
        // other's session. A clean session: nothing is left queued on the broker for us.
        guard let client = pl_mosquitto_new(nil, true, nil) else {
            throw .setupFailed(step: "mosquitto_new", reason: SystemError(errno).reason)
        }
        do throws(MQTTError) {
            try configure(client)
        } catch {
            pl_mosquitto_destroy(client)
            throw error
        }
        return client
    }

    private func configure(_ client: OpaquePointer) throws(MQTTError) {
        pl_mosquitto_user_data_set(client, Unmanaged.passUnretained(self).toOpaque())
        try check(pl_mosquitto_will_set(client, settings.availabilityTopic, Int32(MQTTPublisher.offlinePayload.utf8.count),
                                        MQTTPublisher.offlinePayload, 1, true), step: "setting the last will")
        if let user = settings.user {
            try check(pl_mosquitto_username_pw_set(client, user, settings.password), step: "setting the user name")
        }
        if settings.usesTLS {
            let directory = settings.caFile == nil ? MQTTSettings.systemCertificateDirectory : nil
            let status = pl_mosquitto_tls_set(client, settings.caFile, directory, nil, nil, nil)
            guard status == kPLMosquittoSuccess else {
                throw .tlsFailed(broker: settings.broker, reason: "loading the CA certificates: " + MQTTConnection.reason(status))
            }
        }
        // libmosquitto's window of messages in flight matches this class's own bound (a reading
        // may start just below it) plus the retained set sent on connect (and the final
        // `offline`), so what is handed over goes out at once rather than waiting in
        // libmosquitto's queue.
        let window = UInt32(MQTTConnection.maximumUnacknowledged + MQTTConnection.maximumMessagesPerReading + retainedOnConnect.count + 1)
        try check(pl_mosquitto_max_inflight_messages_set(client, window), step: "setting the in-flight window")
        pl_mosquitto_connect_callback_set(client) { _, context, code in
            guard let context else { return }
            Unmanaged<MQTTConnection>.fromOpaque(context).takeUnretainedValue().connectionAnswered(code)
        }
        pl_mosquitto_disconnect_callback_set(client) { _, context, code in
            guard let context else { return }
            Unmanaged<MQTTConnection>.fromOpaque(context).takeUnretainedValue().connectionEnded(code, systemError: errno)
        }
        pl_mosquitto_publish_callback_set(client) { _, context, _ in
            guard let context else { return }
            Unmanaged<MQTTConnection>.fromOpaque(context).takeUnretainedValue().messageAcknowledged()
        }
        pl_mosquitto_log_callback_set(client) { _, context, level, line in
            guard let context, let line else { return }
            let connection = Unmanaged<MQTTConnection>.fromOpaque(context).takeUnretainedValue()
            if level & kPLMosquittoLogError != 0 { connection.loggedError(String(cString: line)) }
            if level & kPLMosquittoLogDebug != 0 { connection.loggedDebug(line) }
        }
    }

    /// Starts the network thread, which makes the first connection attempt.
    func start() throws(MQTTError) {
        link.withLock { $0.networkThreadRunning = true }
        do throws(ThreadStartError) {
            networkThread = try WorkerThread { [self] in runNetwork() }
        } catch {
            link.withLock { $0.networkThreadRunning = false }
            throw .setupFailed(step: "starting the network thread", reason: error.reason)
        }
    }

    /// Waits up to `timeout` seconds for the first attempt's outcome, but no longer than
    /// `answerWait` seconds after the broker got the CONNECT: a broker that answers does so in a
    /// round trip, and one that never does must not hold up the caller (the network thread gives
    /// up on it after ``answerTimeout`` and retries). nil if none came by then.
    func waitForFirstAnswer(timeout: Double, answerWait: Double) -> FirstAnswer? {
        let deadline = MonotonicClock.nanoseconds() + UInt64(max(timeout, 0) * 1e9)
        let sentAt = link.withLock(waitingUntil: { $0.firstAnswer != nil || $0.connectSentAt != nil }, deadline: deadline) { $0.connectSentAt }
        let answerDeadline = sentAt.map { min(deadline, $0 + UInt64(max(answerWait, 0) * 1e9)) } ?? deadline
        return link.withLock(waitingUntil: { $0.firstAnswer != nil }, deadline: answerDeadline) { $0.firstAnswer }
    }

    /// Keeps `reading` (at most ``maximumMessagesPerReading`` messages) as the newest, in place of
    /// any older one waiting; the network thread hands it over. Never waits.
    func publish(_ reading: [Outgoing]) {
        precondition(reading.count <= MQTTConnection.maximumMessagesPerReading, "a reading of \(reading.count) messages")
        let accepted: Bool = link.withLock { link in
            guard !link.closing else { return false }
            link.newestReading = reading
            return true
        }
        if accepted { sendNewestReadingIfSendable() }
    }

    /// Hands the newest reading to the current client if the link allows.
    private func sendNewestReadingIfSendable() {
        currentClient.withLock { client in
            guard let client, let reading = link.withLock({ $0.takeNewestReadingIfSendable() }) else { return }
            for message in reading { send(message, on: client) }
        }
    }

    var isConnected: Bool { link.withLock { $0.connected } }

    func takeEvents() -> [MQTTEvent] {
        link.withLock { link in
            defer { link.events.removeAll() }
            return link.events
        }
    }

    /// Has the network thread publish `offline` (retained) if connected, wait up to `timeout`
    /// seconds for the broker to acknowledge everything sent, disconnect and end; waits for that.
    /// A clean disconnect means the broker does not send the last will; the `offline` sent here
    /// stands. A thread caught in a connection attempt (a host that does not answer) is left to
    /// end on its own after `timeout` and a second more.
    func stop(timeout: Double) {
        let closeDeadline: UInt64? = link.withLock { link in
            guard link.networkThreadRunning, !link.closing else { return nil }
            link.closing = true
            link.closeDeadline = MonotonicClock.nanoseconds() + UInt64(max(timeout, 0) * 1e9)
            self.link.broadcast()
            return link.closeDeadline
        }
        guard let closeDeadline else { return }
        let ended = link.withLock(waitingUntil: { !$0.networkThreadRunning }, deadline: closeDeadline + 1_000_000_000) { link in
            !link.networkThreadRunning
        }
        if ended { networkThread?.join() }
        networkThread = nil
    }

    // MARK: Network thread

    /// Connects, runs the connection, and after it fails or ends waits the back-off and starts
    /// again with a fresh client, until `stop` or a failure retrying cannot mend.
    private func runNetwork() {
        var client = firstClient
        firstClient = nil
        var delay = MQTTConnection.firstReconnectDelay
        while !link.withLock({ $0.closing }) {
            if client == nil {
                do throws(MQTTError) {
                    client = try makeClient()
                } catch {
                    link.withLock { $0.record(.cannotConnect(broker: settings.broker, reason: error.description)) }
                }
            }
            if let current = client {
                let outcome = connectAndRun(current)
                pl_mosquitto_destroy(current)
                client = nil
                if outcome == .givenUp { break }
                if outcome == .wasAccepted { delay = MQTTConnection.firstReconnectDelay }
            }
            let deadline = MonotonicClock.nanoseconds() + UInt64(delay) * 1_000_000_000
            link.withLock(waitingUntil: { $0.closing }, deadline: deadline) { _ in }
            delay = min(delay * 2, MQTTConnection.lastReconnectDelay)
        }
        if let client { pl_mosquitto_destroy(client) }
        link.withLock { link in
            link.networkThreadRunning = false
            link.connected = false
            self.link.broadcast()
        }
    }

    private enum ConnectionOutcome { case wasAccepted, failed, givenUp }

    /// One connection on `client`, from the attempt to its end.
    private func connectAndRun(_ client: OpaquePointer) -> ConnectionOutcome {
        link.withLock { link in
            link.unsolicitedPublish = false
            link.retainedSetDue = false
        }
        // Publishing from other threads then wakes the loop rather than writing to the socket
        // behind its back.
        _ = pl_mosquitto_threaded_set(client, true)
        // Blocking: resolves the host, connects and, for mqtts://, does the TLS handshake.
        let status = pl_mosquitto_connect(client, settings.host, Int32(settings.port), MQTTConnection.keepAlive)
        let systemError = errno
        guard status == kPLMosquittoSuccess else { return connectFailed(status, systemError: systemError) }
        currentClient.withLock { $0 = client }
        defer { currentClient.withLock { $0 = nil } }
        link.withLock { link in
            if link.connectSentAt == nil { link.connectSentAt = MonotonicClock.nanoseconds() }
            self.link.broadcast()
        }
        let answerDeadline = MonotonicClock.nanoseconds() + MQTTConnection.answerTimeout * 1_000_000_000
        var accepted = false
        while true {
            let status = pl_mosquitto_loop(client, MQTTConnection.loopIntervalMilliseconds, 1)
            let (due, closingNow, unsolicited, isConnected): ([Outgoing], Bool, Bool, Bool) = link.withLock { link in
                var due: [Outgoing] = []
                if link.retainedSetDue {
                    link.retainedSetDue = false
                    due = retainedOnConnect.map { Outgoing(topic: $0.topic, payload: Array($0.payload.utf8), retain: true) }
                }
                return (due, link.closing, link.unsolicitedPublish, link.connected)
            }
            accepted = accepted || isConnected
            for message in due { send(message, on: client) }
            sendNewestReadingIfSendable()
            if unsolicited {
                link.withLock { link in
                    link.connected = false
                    link.record(.unsolicitedMessage(broker: settings.broker))
                }
                _ = pl_mosquitto_disconnect(client)
                return accepted ? .wasAccepted : .failed
            }
            if closingNow {
                close(client, wasConnected: isConnected)
                return .givenUp
            }
            if !accepted, status == kPLMosquittoSuccess, MonotonicClock.nanoseconds() > answerDeadline {
                link.withLock { link in
                    let event = MQTTEvent.cannotConnect(broker: settings.broker,
                                                        reason: "it took the connection but sent no answer in \(MQTTConnection.answerTimeout) s")
                    if event != link.lastFailure { link.record(event) }
                    link.lastFailure = event
                    if link.firstAnswer == nil { link.firstAnswer = .unreachable }
                    self.link.broadcast()
                }
                _ = pl_mosquitto_disconnect(client)
                return .failed
            }
            // connectionEnded has reported why.
            guard status == kPLMosquittoSuccess else {
                return link.withLock({ $0.tlsFailureReported }) ? .givenUp : (accepted ? .wasAccepted : .failed)
            }
        }
    }

    /// Reports a failed attempt; whether to retry.
    private func connectFailed(_ status: Int32, systemError: Int32) -> ConnectionOutcome {
        link.withLock { link in
            defer { self.link.broadcast() }
            switch status {
            // For MOSQ_ERR_EAI errno holds getaddrinfo's code; only "try again" (no DNS server
            // reachable yet, as at boot) is worth retrying on the first attempt.
            case kPLMosquittoLookup where systemError != EAI_AGAIN && link.firstAnswer == nil:
                link.firstAnswer = .unknownHost(reason: String(cString: gai_strerror(systemError)).lowercased())
                return .givenUp
            // A failed handshake: a wrong CA file or host name does not fix itself. loggedError
            // has reported OpenSSL's reason.
            case kPLMosquittoTLS:
                tlsFailed(reason: MQTTConnection.reason(status), in: &link)
                return .givenUp
            case kPLMosquittoErrno where settings.usesTLS && systemError == EPROTO:
                tlsFailed(reason: MQTTConnection.reason(status, systemError: systemError), in: &link)
                return .givenUp
            default:
                let reason = status == kPLMosquittoLookup
                    ? String(cString: gai_strerror(systemError)).lowercased() : MQTTConnection.reason(status, systemError: systemError)
                let event = MQTTEvent.cannotConnect(broker: settings.broker, reason: reason)
                // After "lost ... retrying", a broker still away is no news.
                if event != link.lastFailure, !MQTTConnection.isLoss(link.lastFailure) { link.record(event) }
                link.lastFailure = event
                if link.firstAnswer == nil { link.firstAnswer = .unreachable }
                return .failed
            }
        }
    }

    /// Sends the reading still waiting, then `offline`, waits for the acknowledgements until the
    /// close deadline, and disconnects.
    private func close(_ client: OpaquePointer, wasConnected: Bool) {
        guard wasConnected else { return }
        while link.withLock({ $0.connected && $0.newestReading != nil && MonotonicClock.nanoseconds() < $0.closeDeadline }) {
            sendNewestReadingIfSendable()
            guard pl_mosquitto_loop(client, MQTTConnection.loopIntervalMilliseconds, 1) == kPLMosquittoSuccess else { break }
        }
        link.withLock { $0.unacknowledged += 1 }
        send(Outgoing(topic: settings.availabilityTopic, payload: Array(MQTTPublisher.offlinePayload.utf8), retain: true), on: client)
        while link.withLock({ $0.connected && $0.unacknowledged > 0 && MonotonicClock.nanoseconds() < $0.closeDeadline }) {
            guard pl_mosquitto_loop(client, MQTTConnection.loopIntervalMilliseconds, 1) == kPLMosquittoSuccess else { break }
        }
        _ = pl_mosquitto_disconnect(client)
        link.withLock { $0.connected = false }
    }

    private func connectionAnswered(_ code: Int32) {
        guard code == kPLConnackAccepted else {
            let reason = MQTTConnection.connackReason(code)
            link.withLock { link in
                if link.firstAnswer == nil { link.firstAnswer = .refused(reason: reason) }
                let event = MQTTEvent.refused(broker: settings.broker, reason: reason)
                if event != link.lastFailure { link.record(event) }
                link.lastFailure = event
                self.link.broadcast()
            }
            return
        }
        link.withLock { link in
            link.connected = true
            link.lastFailure = nil
            link.tlsFailureReported = false
            if link.firstAnswer == nil { link.firstAnswer = .accepted }
            link.record(.connected(broker: settings.broker))
            // Each connection has a fresh client, so nothing of an earlier one is in flight:
            // only the retained set the loop sends next.
            link.unacknowledged = retainedOnConnect.count
            link.retainedSetDue = true
            self.link.broadcast()
        }
    }

    private func connectionEnded(_ code: Int32, systemError: Int32) {
        link.withLock { link in
            let wasConnected = link.connected
            link.connected = false
            self.link.broadcast()
            // 0: our own mosquitto_disconnect; a refusal: connectionAnswered reported it.
            guard code != kPLMosquittoSuccess, code != kPLMosquittoConnectionRefused else { return }
            let reason = MQTTConnection.reason(code, systemError: systemError)
            if settings.usesTLS && (code == kPLMosquittoTLS || (code == kPLMosquittoErrno && systemError == EPROTO)) {
                tlsFailed(reason: reason, in: &link)
            } else if wasConnected {
                let event = MQTTEvent.lost(broker: settings.broker, reason: reason)
                link.record(event)
                link.lastFailure = event
            } else {
                let event = MQTTEvent.cannotConnect(broker: settings.broker, reason: reason)
                if event != link.lastFailure { link.record(event) }
                link.lastFailure = event
            }
        }
    }

    private func messageAcknowledged() {
        link.withLock { link in
            link.unacknowledged = max(link.unacknowledged - 1, 0)
            self.link.broadcast()
        }
    }

    /// libmosquitto logs every PUBLISH it receives (before keeping one with QoS 2 until the
    /// broker releases it); PlantLeaf subscribes to nothing, so any is one too many.
    private func loggedDebug(_ line: UnsafePointer<CChar>) {
        guard strstr(line, " received PUBLISH ") != nil else { return }
        link.withLock { $0.unsolicitedPublish = true }
    }

    /// OpenSSL's reasons reach the log only, so the log is where a TLS failure's reason comes from.
    private func loggedError(_ line: String) {
        guard settings.usesTLS, line.hasPrefix("OpenSSL Error") else { return }
        link.withLock { tlsFailed(reason: MQTTConnection.openSSLReason(line), in: &$0) }
    }

    /// Within `link.withLock`. A failed handshake (MOSQ_ERR_TLS, or errno EPROTO) is not retried.
    private func tlsFailed(reason: String, in link: inout Link) {
        guard !link.tlsFailureReported else { return }
        link.tlsFailureReported = true
        if link.firstAnswer == nil { link.firstAnswer = .tlsFailed(reason: reason) }
        link.record(.tlsFailed(broker: settings.broker, reason: reason))
        self.link.broadcast()
    }

    // MARK: Helpers

    /// Publishes with QoS 1, on the network thread; the caller has already counted the message
    /// as unacknowledged.
    private func send(_ message: Outgoing, on client: OpaquePointer) {
        guard let length = Int32(exactly: message.payload.count) else {
            link.withLock { link in
                link.unacknowledged = max(link.unacknowledged - 1, 0)
                link.record(.notPublished(topic: message.topic, reason: "\(message.payload.count) bytes is too large for MQTT"))
            }
            return
        }
        let status = message.payload.withUnsafeBytes { pl_mosquitto_publish(client, nil, message.topic, length, $0.baseAddress, 1, message.retain) }
        guard status != kPLMosquittoSuccess else { return }
        let systemError = errno
        link.withLock { link in
            link.unacknowledged = max(link.unacknowledged - 1, 0)
            link.record(.notPublished(topic: message.topic, reason: MQTTConnection.reason(status, systemError: systemError)))
        }
    }

    private static func isLoss(_ event: MQTTEvent?) -> Bool {
        if case .lost? = event { return true }
        return false
    }

    private func check(_ status: Int32, step: String) throws(MQTTError) {
        guard status == kPLMosquittoSuccess else { throw .setupFailed(step: step, reason: MQTTConnection.reason(status)) }
    }

    /// libmosquitto's text for `status` as part of a sentence; the system's for errno errors.
    static func reason(_ status: Int32, systemError: Int32 = 0) -> String {
        if status == kPLMosquittoErrno && systemError != 0 { return SystemError(systemError).reason }
        guard let text = pl_mosquitto_strerror(status) else { return "error \(status)" }
        var reason = String(cString: text)
        if reason.hasSuffix(".") { reason.removeLast() }
        return reason.prefix(1).lowercased() + reason.dropFirst()
    }

    /// The reason at the end of an OpenSSL error line libmosquitto logged
    /// ("OpenSSL Error[0]: error:0A000086:SSL routines::certificate verify failed").
    static func openSSLReason(_ line: String) -> String {
        guard line.hasPrefix("OpenSSL Error"), let colon = line.lastIndex(of: ":") else { return line }
        let reason = line[line.index(after: colon)...].drop { $0 == " " }
        return reason.isEmpty ? line : String(reason)
    }

    /// MQTT 3.1.1's CONNACK refusals (section 3.2.2.3), with what to check.
    static func connackReason(_ code: Int32) -> String {
        switch code {
        case kPLConnackBadProtocolVersion: return "the broker does not accept MQTT 3.1.1"
        case kPLConnackIdentifierRejected: return "client identifier rejected"
        case kPLConnackServerUnavailable: return "the MQTT service is unavailable"
        case kPLConnackBadUserNameOrPassword: return "bad user name or password"
        case kPLConnackNotAuthorised: return "not authorised (check the user name and password)"
        default: return "refusal code \(code)"
        }
    }
}
