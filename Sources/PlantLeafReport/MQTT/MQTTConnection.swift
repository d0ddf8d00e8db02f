import PlantLeafCore
import CMosquitto
import Glibc

/// One libmosquitto client and the state its network thread shares with `publish` callers.
///
/// libmosquitto's own thread (mosquitto_loop_start) connects, reconnects with back-off and calls
/// the callbacks below. Readings (each a few messages: the result and what Home Assistant shows)
/// wait in a one-reading slot and are handed to libmosquitto only while connected and while fewer
/// than ``maximumUnacknowledged`` messages await the broker's PUBACK: libmosquitto would otherwise
/// queue every QoS 1 message without limit while the broker is away or slow.
///
/// The lock is never held across a libmosquitto call: the network thread holds libmosquitto's
/// own locks while it calls back into this class, so taking them the other way round could deadlock.
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
    }

    /// QoS 1 messages handed to libmosquitto and not yet acknowledged, at most, before results
    /// wait in the slot instead.
    static let maximumUnacknowledged = 8
    /// Messages one reading may be made of, at most (result, state, attributes, problem, image).
    static let maximumMessagesPerReading = 5
    /// Events kept for `takeEvents`; older ones are dropped so a caller that never asks costs nothing.
    static let maximumEvents = 64
    /// Reconnection back-off: libmosquitto's exponential back-off grows the delay from the first to the last.
    static let firstReconnectDelay: UInt32 = 1
    static let lastReconnectDelay: UInt32 = 60
    /// Seconds between PINGREQs on an idle link; a broker silent for 1.5 times this is taken as gone.
    static let keepAlive: Int32 = 30

    private let client: OpaquePointer
    private let settings: MQTTSettings
    /// Published retained each time a connection is accepted: `online`, then the discovery configs.
    private let retainedOnConnect: [HomeAssistantDiscovery.Message]

    private let lock = Lock()
    // Guarded by `lock`:
    private var connected = false
    private var newestReading: [Outgoing]?
    private var unacknowledged = 0
    private var events: [MQTTEvent] = []
    private var firstAnswer: FirstAnswer?
    private var closing = false
    /// The last failed attempt's event, so retries failing the same way are reported once.
    private var lastFailure: MQTTEvent?
    /// Whether a TLS failure was reported since the last connection: OpenSSL logs several lines
    /// for one failure, the first says the most.
    private var tlsFailureReported = false
    private var networkThreadRunning = false

    /// Creates and configures the client; nothing is sent until `start`.
    init(settings: MQTTSettings, retainedOnConnect: [HomeAssistantDiscovery.Message]) throws(MQTTError) {
        // No client id: libmosquitto makes a random one, so two cameras never take over each
        // other's session. A clean session: nothing is left queued on the broker for us.
        guard let client = pl_mosquitto_new(nil, true, nil) else {
            throw .setupFailed(step: "mosquitto_new", reason: SystemError(errno).reason)
        }
        self.client = client
        self.settings = settings
        self.retainedOnConnect = retainedOnConnect

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
        try check(pl_mosquitto_reconnect_delay_set(client, MQTTConnection.firstReconnectDelay, MQTTConnection.lastReconnectDelay, true),
                  step: "setting the reconnect delay")
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
            guard level & kPLMosquittoLogError != 0, let context, let line else { return }
            Unmanaged<MQTTConnection>.fromOpaque(context).takeUnretainedValue().loggedError(String(cString: line))
        }
    }

    deinit {
        stop(timeout: 0)
        pl_mosquitto_destroy(client)
    }

    /// Starts the network thread and connecting. A host that does not resolve and a TLS handshake
    /// that fails at once are errors here; a broker that cannot be reached yet is retried in the
    /// background.
    func start() throws(MQTTError) {
        // The thread first: libmosquitto 2.0 retries a first connection that failed only when
        // the thread was already running as it failed.
        let started = pl_mosquitto_loop_start(client)
        guard started == kPLMosquittoSuccess else {
            throw .setupFailed(step: "starting the network thread", reason: MQTTConnection.reason(started))
        }
        lock.withLock { networkThreadRunning = true }
        // Resolves the host here, on the calling thread; the TCP connection completes on the
        // network thread, which reports a refusal through connectionEnded.
        let status = pl_mosquitto_connect_async(client, settings.host, Int32(settings.port), MQTTConnection.keepAlive)
        let systemError = errno
        switch status {
        case kPLMosquittoSuccess:
            break
        // For MOSQ_ERR_EAI errno holds getaddrinfo's code; only "try again" (no DNS server
        // reachable yet, as at boot) is worth retrying.
        case kPLMosquittoLookup where systemError != EAI_AGAIN:
            throw .unknownHost(host: settings.host, reason: String(cString: gai_strerror(systemError)).lowercased())
        // The handshake may fail within the call (the TCP connection to a local broker is
        // immediate); loggedError has the reason.
        case kPLMosquittoTLS:
            let reason: String = lock.withLock {
                if case .tlsFailed(let reason)? = firstAnswer { return reason }
                return MQTTConnection.reason(status)
            }
            throw .tlsFailed(broker: settings.broker, reason: reason)
        case kPLMosquittoLookup, kPLMosquittoErrno:
            lock.withLock {
                let event = MQTTEvent.cannotConnect(broker: settings.broker, reason: MQTTConnection.reason(status, systemError: systemError))
                record(event)
                lastFailure = event
            }
        default:
            throw .setupFailed(step: "connecting to \(settings.broker)", reason: MQTTConnection.reason(status))
        }
    }

    /// Waits up to `timeout` seconds for the broker's first answer; nil if none came by then.
    func waitForFirstAnswer(timeout: Double) -> FirstAnswer? {
        let deadline = MonotonicClock.nanoseconds() + UInt64(max(timeout, 0) * 1e9)
        return lock.withLock {
            while firstAnswer == nil && lock.wait(until: deadline) {}
            return firstAnswer
        }
    }

    /// Keeps `reading` (at most ``maximumMessagesPerReading`` messages) as the newest and hands
    /// it over at once if the link allows; never waits.
    func publish(_ reading: [Outgoing]) {
        precondition(reading.count <= MQTTConnection.maximumMessagesPerReading, "a reading of \(reading.count) messages")
        let ready: [Outgoing]? = lock.withLock {
            guard !closing else { return nil }
            newestReading = reading
            return takeNewestReadingIfSendable()
        }
        for message in ready ?? [] { send(message) }
    }

    var isConnected: Bool { lock.withLock { connected } }

    func takeEvents() -> [MQTTEvent] {
        lock.withLock {
            defer { events.removeAll() }
            return events
        }
    }

    /// Publishes `offline` (retained) if connected, waits up to `timeout` seconds for the broker
    /// to acknowledge everything sent, then disconnects and ends the network thread. A clean
    /// disconnect means the broker does not send the last will; the `offline` sent here stands.
    func stop(timeout: Double) {
        let (running, wasConnected): (Bool, Bool) = lock.withLock {
            guard networkThreadRunning, !closing else { return (false, false) }
            closing = true
            if connected { unacknowledged += 1 }
            return (true, connected)
        }
        guard running else { return }
        if wasConnected {
            send(Outgoing(topic: settings.availabilityTopic, payload: Array(MQTTPublisher.offlinePayload.utf8), retain: true))
            let deadline = MonotonicClock.nanoseconds() + UInt64(max(timeout, 0) * 1e9)
            lock.withLock {
                while connected && unacknowledged > 0 && lock.wait(until: deadline) {}
            }
        }
        // Also wakes the network thread from a back-off sleep; loop_stop then waits for it to end.
        _ = pl_mosquitto_disconnect(client)
        _ = pl_mosquitto_loop_stop(client, false)
        lock.withLock {
            networkThreadRunning = false
            connected = false
        }
    }

    // MARK: Network thread

    private func connectionAnswered(_ code: Int32) {
        guard code == kPLConnackAccepted else {
            let reason = MQTTConnection.connackReason(code)
            lock.withLock {
                if firstAnswer == nil { firstAnswer = .refused(reason: reason) }
                let event = MQTTEvent.refused(broker: settings.broker, reason: reason)
                if event != lastFailure { record(event) }
                lastFailure = event
                lock.broadcast()
            }
            return
        }
        let reading: [Outgoing]? = lock.withLock {
            connected = true
            lastFailure = nil
            tlsFailureReported = false
            if firstAnswer == nil { firstAnswer = .accepted }
            record(.connected(broker: settings.broker))
            // libmosquitto resends what a lost connection left unacknowledged and reports those
            // acknowledgements too; counting afresh means a PUBACK lost with the old connection
            // can never hold results back for good (the count goes at most one bound over).
            unacknowledged = retainedOnConnect.count
            lock.broadcast()
            return takeNewestReadingIfSendable()
        }
        for message in retainedOnConnect { send(Outgoing(topic: message.topic, payload: Array(message.payload.utf8), retain: true)) }
        for message in reading ?? [] { send(message) }
    }

    private func connectionEnded(_ code: Int32, systemError: Int32) {
        lock.withLock {
            let wasConnected = connected
            connected = false
            lock.broadcast()
            // 0: our own mosquitto_disconnect; a refusal: connectionAnswered reported it.
            guard code != kPLMosquittoSuccess, code != kPLMosquittoConnectionRefused else { return }
            let reason = MQTTConnection.reason(code, systemError: systemError)
            if settings.usesTLS && (code == kPLMosquittoTLS || (code == kPLMosquittoErrno && systemError == EPROTO)) {
                tlsFailed(reason: reason)
            } else if wasConnected {
                record(.lost(broker: settings.broker, reason: reason))
            } else {
                let event = MQTTEvent.cannotConnect(broker: settings.broker, reason: reason)
                if event != lastFailure { record(event) }
                lastFailure = event
            }
        }
    }

    private func messageAcknowledged() {
        let reading: [Outgoing]? = lock.withLock {
            unacknowledged = max(unacknowledged - 1, 0)
            lock.broadcast()
            return takeNewestReadingIfSendable()
        }
        for message in reading ?? [] { send(message) }
    }

    /// OpenSSL's reasons reach the log only; a failed handshake may also end the network thread
    /// without a disconnect callback, so the log is where TLS failures are noticed.
    private func loggedError(_ line: String) {
        guard settings.usesTLS, line.hasPrefix("OpenSSL Error") else { return }
        lock.withLock { tlsFailed(reason: MQTTConnection.openSSLReason(line)) }
    }

    /// With the lock held. A failed handshake (MOSQ_ERR_TLS, or errno EPROTO) ends libmosquitto's
    /// thread: nothing retries after it.
    private func tlsFailed(reason: String) {
        guard !tlsFailureReported else { return }
        tlsFailureReported = true
        if firstAnswer == nil { firstAnswer = .tlsFailed(reason: reason) }
        record(.tlsFailed(broker: settings.broker, reason: reason))
        lock.broadcast()
    }

    // MARK: Helpers

    /// With the lock held: the newest reading if it may go now, its messages counted as unacknowledged.
    private func takeNewestReadingIfSendable() -> [Outgoing]? {
        guard connected, !closing, unacknowledged < MQTTConnection.maximumUnacknowledged, let reading = newestReading else { return nil }
        newestReading = nil
        unacknowledged += reading.count
        return reading
    }

    /// Publishes with QoS 1; the caller has already counted the message as unacknowledged.
    private func send(_ message: Outgoing) {
        guard let length = Int32(exactly: message.payload.count) else {
            lock.withLock {
                unacknowledged = max(unacknowledged - 1, 0)
                record(.notPublished(topic: message.topic, reason: "\(message.payload.count) bytes is too large for MQTT"))
            }
            return
        }
        let status = message.payload.withUnsafeBytes { pl_mosquitto_publish(client, nil, message.topic, length, $0.baseAddress, 1, message.retain) }
        guard status != kPLMosquittoSuccess else { return }
        let systemError = errno
        lock.withLock {
            unacknowledged = max(unacknowledged - 1, 0)
            record(.notPublished(topic: message.topic, reason: MQTTConnection.reason(status, systemError: systemError)))
        }
    }

    /// With the lock held.
    private func record(_ event: MQTTEvent) {
        if events.count == MQTTConnection.maximumEvents { events.removeFirst() }
        events.append(event)
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
