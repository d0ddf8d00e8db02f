import PlantLeafCore
import PlantLeafCamera
import PlantLeafMQTT

/// The lines `plantleaf camera` writes on stderr for what happens while it runs: the library
/// reports typed events, and their wording (and any remedy) lives here with the rest of the
/// command line's.
enum EventText {
    /// One broker connection change, without the "plantleaf camera: mqtt: " prefix.
    static func line(_ event: MQTTEvent) -> String {
        let delays = MQTTPublisher.reconnectDelays
        let retrying = "retrying every \(delays.first) s, backing off to \(delays.last) s"
        switch event {
        case .connected(let broker): return "connected to \(broker)"
        case .cannotConnect(let broker, let reason): return "cannot connect to \(broker): \(reason); \(retrying)"
        case .refused(let broker, let reason): return "\(broker) refused the connection: \(reason); \(retrying)"
        case .lost(let broker, let reason): return "connection to \(broker) lost: \(reason); \(retrying)"
        case .unsolicitedMessage(let broker):
            return "\(broker) sent a message though plantleaf subscribes to nothing: connection dropped; \(retrying)"
        case .tlsFailed(let broker, let reason):
            return "TLS with \(broker) failed: \(reason); not retrying (check the CA file and the broker's host name)"
        case .notPublished(let topic, let reason): return "not published to \(topic): \(reason)"
        }
    }

    /// One camera notice, without the "plantleaf camera: " prefix.
    static func line(_ notice: CameraNotice) -> String {
        switch notice {
        case .frameDropped(let source, .endedInsideFrame(let bytes)): return "\(source): stream ended inside a frame (\(bytes) bytes): dropped"
        case .frameDropped(let source, .oversized(let limit)): return "\(source): frame over the \(limit)-byte limit: dropped"
        case .frameDropped(let source, .damaged(let reason)): return "\(source): damaged frame dropped: \(reason)"
        case .noticesNotShown(let count): return "\(count) more dropped frames since the last reading, not shown one by one"
        case .retrying(let error, let pause): return "\(error.description); trying again in \(JSONObject.number(pause, decimals: 1)) s"
        case .cameraBack(let device, let failedAttempts): return "\(device): camera back after \(failedAttempts) failed attempts"
        }
    }
}
