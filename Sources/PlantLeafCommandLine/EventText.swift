import PlantLeafCore
import PlantLeafCamera
import PlantLeafJournal
import PlantLeafMQTT
import PlantLeafSupport

/// The lines `plantleaf camera` writes on stderr for what happens while it runs: the library
/// reports typed events, and their wording (and any remedy) lives here with the rest of the
/// command line's.
enum EventText {
    /// One broker connection change, without the "plantleaf camera: mqtt: " prefix, in `catalogue`'s language.
    static func line(_ event: MQTTEvent, in catalogue: Catalogue = .english) -> String {
        let delays = MQTTPublisher.reconnectDelays
        let retrying = catalogue.text("mqtt.link.retrying", ["first": String(delays.first), "last": String(delays.last)])
        switch event {
        case .connected(let broker): return catalogue.text("mqtt.link.connected", ["broker": broker])
        case .cannotConnect(let broker, let reason): return catalogue.text("mqtt.link.cannot-connect", ["broker": broker, "reason": reason, "retrying": retrying])
        case .refused(let broker, let reason): return catalogue.text("mqtt.link.refused", ["broker": broker, "reason": reason, "retrying": retrying])
        case .lost(let broker, let reason): return catalogue.text("mqtt.link.lost", ["broker": broker, "reason": reason, "retrying": retrying])
        case .unsolicitedMessage(let broker): return catalogue.text("mqtt.link.unsolicited-message", ["broker": broker, "retrying": retrying])
        case .tlsFailed(let broker, let reason): return catalogue.text("mqtt.link.tls-failed", ["broker": broker, "reason": reason])
        case .notPublished(let topic, let reason): return catalogue.text("mqtt.link.not-published", ["topic": topic, "reason": reason])
        }
    }

    /// One camera notice, without the "plantleaf camera: " prefix, in `catalogue`'s language.
    static func line(_ notice: CameraNotice, in catalogue: Catalogue = .english) -> String {
        switch notice {
        case .frameDropped(let source, .endedInsideFrame(let bytes)):
            return catalogue.text("camera.notice.ended-inside-frame", ["source": source, "bytes": String(bytes)])
        case .frameDropped(let source, .oversized(let limit)): return catalogue.text("camera.notice.oversized", ["source": source, "limit": String(limit)])
        case .frameDropped(let source, .damaged(let damage)):
            return catalogue.text("camera.notice.damaged", ["source": source, "problem": damage.text(in: catalogue)])
        case .noticesNotShown(let count): return catalogue.text("camera.notice.not-shown", ["count": String(count)])
        case .retrying(let error, let pause):
            return catalogue.text("camera.notice.retrying", ["problem": error.description(in: catalogue), "seconds": JSONObject.number(pause, decimals: 1)])
        case .cameraBack(let device, let failedAttempts):
            return catalogue.text("camera.notice.back", ["device": device, "count": String(failedAttempts)])
        }
    }

    /// One thing the journal's writer says, without the "plantleaf camera: " prefix, in `catalogue`'s language.
    static func line(_ notice: JournalNotice, in catalogue: Catalogue = .english) -> String {
        switch notice {
        case .writeFailed(let error): return catalogue.text("journal.notice.write-failed", ["problem": error.description(in: catalogue)])
        case .writingAgain(let path): return catalogue.text("journal.notice.writing-again", ["path": path])
        case .rowPassedOver(let path, let row):
            return catalogue.text("journal.notice.row-passed-over", ["path": path, "table": row.table, "id": String(row.id), "column": row.column, "value": row.value])
        case .fallingBehind(let path): return catalogue.text("journal.notice.falling-behind", ["path": path])
        case .caughtUp(let path, let count): return catalogue.text("journal.notice.caught-up", ["path": path, "count": String(count)])
        case .replaced(let path): return catalogue.text("journal.notice.replaced", ["path": path])
        }
    }
}
