import PlantLeafCore
import CMosquitto
import Glibc
import PlantLeafSupport

/// The link to the broker: a network thread of PlantLeaf's own that connects, runs
/// libmosquitto's loop (mosquitto_loop) and reconnects, doing what ``MQTTLink`` (every decision
/// of the link, time given as an input) says after each event, and the state it shares with
/// `publish` callers.
///
/// Why PlantLeaf's own thread rather than libmosquitto's (mosquitto_loop_start): in libmosquitto
/// 2.0 a TLS connection to a port that refuses spins that thread at full speed instead of backing
/// off, and a broker's PUBLISH packets with QoS 2 are kept until the broker releases them, without
/// limit, in a client that lives as long as the thread. Here each connection gets a fresh client,
/// a connection that fails waits the link's back-off whatever the scheme, and a connection on
/// which the broker sends any PUBLISH (PlantLeaf subscribes to nothing) is dropped at once, its
/// client and whatever it kept destroyed.
///
/// `publish` puts the reading in the link's one-reading slot and hands it to libmosquitto at once
/// if the link allows (the network thread does when acknowledgements make room).
///
/// libmosquitto calls the callbacks below on the network thread, within mosquitto_loop and
/// mosquitto_connect, while holding its own locks; they only take `shared`, never `currentClient`,
/// and no libmosquitto call is made with `shared` held.
///
/// Sendable unchecked because of the libmosquitto clients, C pointers the compiler cannot
/// follow: the current one is used from other threads only under `currentClient`'s lock (and
/// libmosquitto, told so by mosquitto_threaded_set, takes its own locks inside), the first one
/// is made here and used by the network thread alone once it starts, and `networkThread` is
/// touched only by the owner's `start` and `stop`. All else that threads share is in `shared`.
final class MQTTConnection: @unchecked Sendable {
    typealias Outgoing = MQTTLink.Outgoing
    typealias FirstAnswer = MQTTLink.FirstAnswer

    /// Messages one reading may be made of, at most (result, state, attributes, details, problem, image).
    static let maximumMessagesPerReading = 6
    /// Seconds between PINGREQs on an idle link; a broker silent for 1.5 times this is taken as gone.
    static let keepAlive: Int32 = 30
    /// The longest a loop pass waits for the socket: how late a stop is seen, at most, on a quiet link.
    static let loopIntervalMilliseconds: Int32 = 100

    private let settings: MQTTSettings
    /// The first client, made by init so that set-up errors show there; later ones by the thread.
    private var firstClient: OpaquePointer?
    private var networkThread: WorkerThread?

    /// The client of the connection being run; nil between connections. Held while the client
    /// is used from outside the network thread, and by that thread while it sets or clears the
    /// client, so a client is never destroyed in use.
    private let currentClient = Lock<OpaquePointer?>(nil)

    /// What the network thread, the callbacks and `publish` callers share.
    private struct Shared {
        var link: MQTTLink
        var networkThreadRunning = false
    }

    private let shared: Lock<Shared>

    /// Makes and configures the first client; nothing is sent until `start`.
    init(settings: MQTTSettings, retainedOnConnect: [HomeAssistantDiscovery.Message]) throws(MQTTError) {
        self.settings = settings
        let offline = Outgoing(topic: settings.availabilityTopic, payload: Array(MQTTPublisher.offlinePayload.utf8), retain: true)
        shared = Lock(Shared(link: MQTTLink(broker: settings.broker,
                                            retainedOnConnect: retainedOnConnect.map { Outgoing(topic: $0.topic, payload: Array($0.payload.utf8), retain: true) },
                                            offline: offline)))
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
        // libmosquitto's window of messages in flight matches the link's own bound (a reading
        // may start just below it) plus the retained set sent on connect (and the final
        // `offline`), so what is handed over goes out at once rather than waiting in
        // libmosquitto's queue.
        let retainedCount = shared.withLock { $0.link.retainedOnConnect.count }
        let window = UInt32(MQTTLink.maximumUnacknowledged + MQTTConnection.maximumMessagesPerReading + retainedCount + 1)
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
            Unmanaged<MQTTConnection>.fromOpaque(context).takeUnretainedValue().update { $0.acknowledged() }
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
        shared.withLock { $0.networkThreadRunning = true }
        do throws(ThreadStartError) {
            networkThread = try WorkerThread { [self] in runNetwork() }
        } catch {
            shared.withLock { $0.networkThreadRunning = false }
            throw .setupFailed(step: "starting the network thread", reason: error.reason)
        }
    }

    /// Waits up to `timeout` seconds for the first attempt's outcome, but no longer than
    /// `answerWait` seconds after the broker got the CONNECT: a broker that answers does so in a
    /// round trip, and one that never does must not hold up the caller (the network thread gives
    /// up on it after ``MQTTLink/answerTimeout`` and retries). nil if none came by then.
    func waitForFirstAnswer(timeout: Double, answerWait: Double) -> FirstAnswer? {
        let deadline = MonotonicClock.nanoseconds() + UInt64(max(timeout, 0) * 1e9)
        let sentAt = shared.withLock(waitingUntil: { $0.link.firstAnswer != nil || $0.link.connectSentAt != nil }, deadline: deadline) {
            $0.link.connectSentAt
        }
        let answerDeadline = sentAt.map { min(deadline, $0 + UInt64(max(answerWait, 0) * 1e9)) } ?? deadline
        return shared.withLock(waitingUntil: { $0.link.firstAnswer != nil }, deadline: answerDeadline) { $0.link.firstAnswer }
    }

    /// Keeps `reading` (at most ``maximumMessagesPerReading`` messages) as the newest, in place of
    /// any older one waiting; the network thread hands it over. Never waits.
    func publish(_ reading: [Outgoing]) {
        precondition(reading.count <= MQTTConnection.maximumMessagesPerReading, "a reading of \(reading.count) messages")
        if shared.withLock({ $0.link.publishAsked(reading) }) { sendNewestReadingIfSendable() }
    }

    /// Hands the newest reading to the current client if the link allows.
    private func sendNewestReadingIfSendable() {
        currentClient.withLock { client in
            guard let client, let reading = shared.withLock({ $0.link.takeNewestReadingIfSendable() }) else { return }
            for message in reading { send(message, on: client) }
        }
    }

    var isConnected: Bool { shared.withLock { $0.link.connected } }

    func takeEvents() -> [MQTTEvent] {
        shared.withLock { $0.link.takeEvents() }
    }

    /// As `takeEvents`, but waits up to `seconds` for the next change when there is none yet.
    func takeEvents(waitingUpTo seconds: Double) -> [MQTTEvent] {
        let deadline = MonotonicClock.nanoseconds() + UInt64(max(seconds, 0) * 1e9)
        return shared.withLock(waitingUntil: { $0.link.hasEvents }, deadline: deadline) { $0.link.takeEvents() }
    }

    /// Has the network thread publish `offline` (retained) if connected, wait up to `timeout`
    /// seconds for the broker to acknowledge everything sent, disconnect and end; waits for that.
    /// A clean disconnect means the broker does not send the last will; the `offline` sent here
    /// stands. A thread caught in a connection attempt (a host that does not answer) is left to
    /// end on its own after `timeout` and a second more.
    func stop(timeout: Double) {
        let closeDeadline: UInt64? = shared.withLock { shared in
            guard shared.networkThreadRunning, shared.link.stopAsked(timeout: timeout, at: MonotonicClock.nanoseconds()) else { return nil }
            self.shared.broadcast()
            return shared.link.closeDeadline
        }
        guard let closeDeadline else { return }
        let ended = shared.withLock(waitingUntil: { !$0.networkThreadRunning }, deadline: closeDeadline + 1_000_000_000) { shared in
            !shared.networkThreadRunning
        }
        if ended { networkThread?.join() }
        networkThread = nil
    }

    /// Applies an event to the link and wakes whoever waits on it.
    private func update<Result>(_ event: (inout MQTTLink) -> Result) -> Result {
        shared.withLock { shared in
            defer { self.shared.broadcast() }
            return event(&shared.link)
        }
    }

    // MARK: Network thread

    /// Connects, runs the connection, and after it fails or ends waits as long as the link says
    /// and starts again with a fresh client, until `stop` or a failure retrying cannot mend.
    private func runNetwork() {
        var client = firstClient
        firstClient = nil
        while !shared.withLock({ $0.link.closing }) {
            if client == nil {
                do throws(MQTTError) {
                    client = try makeClient()
                } catch {
                    let next = update { $0.clientNotMade(reason: error.description, at: MonotonicClock.nanoseconds()) }
                    guard wait(for: next) else { break }
                    continue
                }
            }
            guard let current = client else { break }
            let next = connectAndRun(current)
            pl_mosquitto_destroy(current)
            client = nil
            guard wait(for: next) else { break }
        }
        if let client { pl_mosquitto_destroy(client) }
        shared.withLock { shared in
            shared.networkThreadRunning = false
            shared.link.ended(.expected)
            self.shared.broadcast()
        }
    }

    /// Waits as `action` says (a stop cuts it short); false when the thread is to end.
    private func wait(for action: MQTTLink.Action) -> Bool {
        guard case .waitUntil(let time) = action else { return false }
        shared.withLock(waitingUntil: { $0.link.closing }, deadline: time) { _ in }
        return true
    }

    /// One connection on `client`, from the attempt to its end; what the link says to do after it.
    private func connectAndRun(_ client: OpaquePointer) -> MQTTLink.Action {
        update { $0.attemptBegins() }
        // Publishing from other threads then wakes the loop rather than writing to the socket
        // behind its back.
        _ = pl_mosquitto_threaded_set(client, true)
        // Blocking: resolves the host, connects and, for mqtts://, does the TLS handshake.
        let status = pl_mosquitto_connect(client, settings.host, Int32(settings.port), MQTTConnection.keepAlive)
        let systemError = errno
        guard status == kPLMosquittoSuccess else {
            let failure = attemptFailure(status, systemError: systemError)
            return update { $0.attemptFailed(failure, at: MonotonicClock.nanoseconds()) }
        }
        currentClient.withLock { $0 = client }
        defer { currentClient.withLock { $0 = nil } }
        update { $0.connectSent(at: MonotonicClock.nanoseconds()) }
        while true {
            let status = pl_mosquitto_loop(client, MQTTConnection.loopIntervalMilliseconds, 1)
            let actions = update { $0.tick(at: MonotonicClock.nanoseconds(), loopFailed: status != kPLMosquittoSuccess) }
            for action in actions {
                switch action {
                case .publish(let messages): for message in messages { send(message, on: client) }
                case .disconnect: _ = pl_mosquitto_disconnect(client)
                case .waitUntil, .end: return action
                }
            }
        }
    }

    /// What a failed mosquitto_connect means for the link.
    private func attemptFailure(_ status: Int32, systemError: Int32) -> MQTTLink.AttemptFailure {
        switch status {
        // For MOSQ_ERR_EAI errno holds getaddrinfo's code; only "try again" (no DNS server
        // reachable yet, as at boot) is worth retrying on the first attempt.
        case kPLMosquittoLookup where systemError != EAI_AGAIN:
            return .unknownHost(reason: String(cString: gai_strerror(systemError)).lowercased())
        case kPLMosquittoLookup:
            return .unreachable(reason: String(cString: gai_strerror(systemError)).lowercased())
        // A failed handshake: a wrong CA file or host name does not fix itself. loggedError
        // has reported OpenSSL's reason.
        case kPLMosquittoTLS:
            return .tlsFailed(reason: MQTTConnection.reason(status))
        case kPLMosquittoErrno where settings.usesTLS && systemError == EPROTO:
            return .tlsFailed(reason: MQTTConnection.reason(status, systemError: systemError))
        default:
            return .unreachable(reason: MQTTConnection.reason(status, systemError: systemError))
        }
    }

    private func connectionAnswered(_ code: Int32) {
        guard code == kPLConnackAccepted else {
            let reason = MQTTConnection.connackReason(code)
            update { $0.refused(reason: reason) }
            return
        }
        update { $0.accepted() }
    }

    private func connectionEnded(_ code: Int32, systemError: Int32) {
        let ending: MQTTLink.Ending
        // 0: our own mosquitto_disconnect; a refusal: connectionAnswered reported it.
        if code == kPLMosquittoSuccess || code == kPLMosquittoConnectionRefused {
            ending = .expected
        } else if settings.usesTLS && (code == kPLMosquittoTLS || (code == kPLMosquittoErrno && systemError == EPROTO)) {
            ending = .tlsFailed(reason: MQTTConnection.reason(code, systemError: systemError))
        } else {
            ending = .failed(reason: MQTTConnection.reason(code, systemError: systemError))
        }
        update { $0.ended(ending) }
    }

    /// libmosquitto logs every PUBLISH it receives (before keeping one with QoS 2 until the
    /// broker releases it); PlantLeaf subscribes to nothing, so any is one too many.
    private func loggedDebug(_ line: UnsafePointer<CChar>) {
        guard strstr(line, " received PUBLISH ") != nil else { return }
        update { $0.unsolicitedPublishReceived() }
    }

    /// OpenSSL's reasons reach the log only, so the log is where a TLS failure's reason comes from.
    private func loggedError(_ line: String) {
        guard settings.usesTLS, line.hasPrefix("OpenSSL Error") else { return }
        update { $0.tlsFailed(reason: MQTTConnection.openSSLReason(line)) }
    }

    // MARK: Helpers

    /// Publishes with QoS 1, on the network thread; the caller has already counted the message
    /// as unacknowledged.
    private func send(_ message: Outgoing, on client: OpaquePointer) {
        guard let length = Int32(exactly: message.payload.count) else {
            update { $0.notPublished(topic: message.topic, reason: "\(message.payload.count) bytes is too large for MQTT") }
            return
        }
        let status = message.payload.withUnsafeBytes { pl_mosquitto_publish(client, nil, message.topic, length, $0.baseAddress, 1, message.retain) }
        guard status != kPLMosquittoSuccess else { return }
        let systemError = errno
        update { $0.notPublished(topic: message.topic, reason: MQTTConnection.reason(status, systemError: systemError)) }
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
