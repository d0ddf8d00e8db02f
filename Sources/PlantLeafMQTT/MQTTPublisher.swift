import PlantLeafCore
import CMosquitto

/// Publishes classification results to an MQTT broker, for Home Assistant, Node-RED and the like.
///
/// Topics, under the settings' base topic, all QoS 1:
/// - `<base>/result`: each reading's record as its JSON line (``MQTTReading/resultPayload``), not retained;
/// - `<base>/state`, `<base>/attributes`, `<base>/problem`, `<base>/image` (retained): what Home
///   Assistant shows of the last reading (``MQTTReading``), so a restarted Home Assistant or any
///   later subscriber gets it at once;
/// - `<base>/availability`: `online` (retained) once connected, `offline` (retained) after
///   ``close(timeout:)``, and `offline` as the last will the broker publishes if the connection dies;
/// - Home Assistant discovery configs (retained), sent again on every connection: see
///   ``HomeAssistantDiscovery``.
///
/// Nothing here waits on the network after ``init(settings:softwareVersion:connectTimeout:)``:
/// a network thread connects and reconnects (back-off from 1 s to 60 s, plain or TLS), and
/// ``publish(_:)`` returns at once. While the broker is away only the newest reading is kept, and
/// it is published as soon as the connection is back; older ones are dropped, never queued.
///
/// ```swift
/// let settings = try MQTTSettings(url: "mqtt://camera@broker.local/greenhouse/bench1")
/// let publisher = try MQTTPublisher(settings: settings, softwareVersion: "1.4.0")
/// let top = [ScoredClass(index: 29, label: "Tomato___Early_blight", score: 0.93)]
/// let record = ReadingRecord(frame: 1, time: "2026-12-02T10:00:00+01:00", verdict: .diagnosis, top: top,
///                            timings: ReadingRecord.Timings(prepare: 2.5, invoke: 11.5))
/// publisher.publish(MQTTReading(record: record))
/// for event in publisher.takeEvents() { print(event) }   // connected(broker: "broker.local:1883")
/// publisher.close()
/// ```
public final class MQTTPublisher: Sendable {
    /// The library opened with dlopen (Debian package libmosquitto1).
    public static let librarySoname = PL_MOSQUITTO_SONAME
    public static let onlinePayload = "online"
    public static let offlinePayload = "offline"
    /// Seconds the publisher waits before reconnecting: the first delay, doubled after each
    /// failed attempt up to the last.
    public static let reconnectDelays = (first: Int(MQTTLink.firstReconnectDelay), last: Int(MQTTLink.lastReconnectDelay))

    public let settings: MQTTSettings
    public let discovery: HomeAssistantDiscovery
    /// The language of the discovery's names, the "display" attribute, and the words in records.
    private let catalogue: Catalogue
    private let connection: MQTTConnection

    /// Loads libmosquitto, starts connecting on its network thread, and waits for the broker's
    /// answer as ``awaitAnswer(connectTimeout:)`` does, so that mistakes in the settings show at
    /// start-up; with `connectTimeout` 0 it returns at once, for the caller to await the answer
    /// later (after its own set-up, which the connection then overlaps). A broker that cannot be
    /// reached or does not answer in time is not an error: the publisher keeps trying in the
    /// background and ``takeEvents()`` reports how it goes.
    ///
    /// - Parameters:
    ///   - softwareVersion: PlantLeaf's version, shown by Home Assistant as the device's firmware.
    ///   - connectTimeout: seconds to wait for the first answer; 0 returns at once.
    /// - Throws: ``MQTTError/libraryMissing(reason:)`` or ``MQTTError/libraryUnusable(reason:)``;
    ///   ``MQTTError/unknownHost(host:reason:)`` when the host name does not resolve;
    ///   ``MQTTError/refused(broker:reason:)`` when the broker refuses (wrong user name or
    ///   password, not authorised); ``MQTTError/tlsFailed(broker:reason:)``; or
    ///   ``MQTTError/setupFailed(step:reason:)``.
    public init(settings: MQTTSettings, softwareVersion: String, cameraName: String? = nil, catalogue: Catalogue = .english,
                connectTimeout: Double = 5) throws(MQTTError) {
        self.catalogue = catalogue
        try MQTTPublisher.loadLibrary()
        self.settings = settings
        discovery = HomeAssistantDiscovery(settings: settings, softwareVersion: softwareVersion, cameraName: cameraName, catalogue: catalogue)
        let online = HomeAssistantDiscovery.Message(topic: settings.availabilityTopic, payload: MQTTPublisher.onlinePayload)
        connection = try MQTTConnection(settings: settings, retainedOnConnect: [online] + discovery.messages)
        try connection.start()
        try awaitAnswer(connectTimeout: connectTimeout)
    }

    /// Seconds ``awaitAnswer(connectTimeout:)`` waits for the broker's answer once it has the
    /// connection: a broker that is there answers in a round trip, with room for an emulated or
    /// loaded machine.
    public static let answerWait = 1.0

    /// Waits up to `connectTimeout` seconds for the broker to be reached (its name resolved, TCP
    /// and TLS up), then up to ``answerWait`` seconds for its answer: a broker that took the
    /// connection and says nothing holds up no one (the network thread gives up on it after 5 s,
    /// says so in ``takeEvents()``, and retries).
    ///
    /// - Throws: ``MQTTError/unknownHost(host:reason:)``, ``MQTTError/refused(broker:user:reason:)``
    ///   or ``MQTTError/tlsFailed(broker:reason:)`` when that was the first attempt's outcome;
    ///   the connection is then stopped.
    public func awaitAnswer(connectTimeout: Double = 5) throws(MQTTError) {
        switch connection.waitForFirstAnswer(timeout: connectTimeout, answerWait: MQTTPublisher.answerWait) {
        case .refused(let reason)?:
            connection.stop(timeout: 0)
            throw .refused(broker: settings.broker, user: settings.user, reason: reason)
        case .tlsFailed(let reason)?:
            connection.stop(timeout: 0)
            throw .tlsFailed(broker: settings.broker, reason: reason)
        case .unknownHost(let reason)?:
            connection.stop(timeout: 0)
            throw .unknownHost(host: settings.host, reason: reason)
        case .accepted?, .unreachable?, nil:
            break
        }
    }

    deinit {
        connection.stop(timeout: 0)
    }

    /// Opens libmosquitto.so.1 if it is not open yet. ``init(settings:softwareVersion:connectTimeout:)``
    /// calls it; call it alone to check the library is there before anything else starts.
    ///
    /// - Throws: `MQTTError.libraryMissing` when libmosquitto.so.1 cannot be opened,
    ///   `.libraryUnusable` when it lacks an entry point or fails to initialise.
    public static func loadLibrary() throws(MQTTError) {
        var detail = [CChar](repeating: 0, count: 512)
        let state = pl_mosquitto_load(librarySoname, &detail, detail.count)
        switch LibraryLoad(state: state, detail: detail, library: librarySoname, setUp: "mosquitto_lib_init") {
        case .loaded: return
        case .notOpened(let reason): throw .libraryMissing(reason: reason)
        case .unusable(let reason): throw .libraryUnusable(reason: reason)
        }
    }

    /// Publishes one reading (its record to `<base>/result`, what Home Assistant shows to the
    /// retained topics), or keeps it as the newest if it cannot go now (not connected, or the
    /// broker is behind with acknowledgements), in place of any older one waiting. Returns at
    /// once. Ignored after ``close(timeout:)``.
    public func publish(_ reading: MQTTReading) {
        var messages = [MQTTConnection.Outgoing(topic: settings.resultTopic, payload: reading.resultPayload(in: catalogue), retain: false),
                        MQTTConnection.Outgoing(topic: settings.stateTopic, payload: Array(reading.state.utf8), retain: true),
                        MQTTConnection.Outgoing(topic: settings.attributesTopic, payload: Array(reading.attributes(in: catalogue).utf8), retain: true),
                        MQTTConnection.Outgoing(topic: settings.detailsTopic, payload: Array(reading.details(in: catalogue).utf8), retain: true),
                        MQTTConnection.Outgoing(topic: settings.problemTopic,
                                                payload: Array((reading.isProblem ? HomeAssistantDiscovery.problemOn : HomeAssistantDiscovery.problemOff).utf8),
                                                retain: true)]
        if let image = reading.frameJPEG {
            messages.append(MQTTConnection.Outgoing(topic: settings.imageTopic, payload: image, retain: true))
        }
        connection.publish(messages)
    }

    /// Whether the broker has accepted the connection and it has not been lost since.
    public var isConnected: Bool { connection.isConnected }

    /// The connection changes since the last call, oldest first. Only the latest 64 are kept
    /// between calls.
    public func takeEvents() -> [MQTTEvent] {
        connection.takeEvents()
    }

    /// As ``takeEvents()``, but waits up to `seconds` for the next change when there is none yet:
    /// for a caller with nothing to do until the link changes (a test waiting for the broker).
    func takeEvents(waitingUpTo seconds: Double) -> [MQTTEvent] {
        connection.takeEvents(waitingUpTo: seconds)
    }

    /// Publishes `offline` to the availability topic, waits up to `timeout` seconds for the broker
    /// to acknowledge it and any result still on its way, then disconnects. Later calls do nothing.
    /// A publisher released without it closes the same way without waiting.
    public func close(timeout: Double = 2) {
        connection.stop(timeout: timeout)
    }
}
