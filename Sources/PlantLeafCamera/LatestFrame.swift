import PlantLeafCore
import Glibc

/// How the capture thread ended.
package enum CaptureEnd: Sendable {
    case stopped
    case durationReached
    /// A stream input ended: the frame still waiting is classified first.
    case endOfStream
    case failed(CameraError)
}

/// A one-frame mailbox between the capture thread and the inference thread: capture overwrites
/// it with every new frame, inference takes the newest and waits when there is none. Old frames
/// are never queued, so a slow model never sees a stale picture or a growing backlog.
package final class LatestFrame: @unchecked Sendable {
    /// Notices kept between two `takeNotices` calls: a stream of damaged frames must not fill
    /// memory while inference is busy; the rest are counted (`CameraNotice.noticesNotShown`).
    package static let keptNotices = 16

    private let lock = Lock()
    private var pending = Frame()
    private var hasPending = false
    private var end: CaptureEnd?
    private var counts = CaptureCounts()
    private var lastSequence: UInt32?
    private var recentTimestamps: [UInt64] = []
    /// Reports from the capture thread (dropped stream frames), for the caller to show.
    private var notices: [CameraNotice] = []
    private var noticesNotKept = 0

    package init() {}

    /// Records a captured frame: counts sequence gaps, and unless the source flagged it as bad,
    /// copies its bytes in place of any frame not yet taken.
    package func put(_ bytes: UnsafeRawBufferPointer, sequence: UInt32, timestamp: UInt64, flaggedError: Bool = false) {
        lock.withLock {
            if let lastSequence, sequence > lastSequence &+ 1 { counts.dropped += Int(sequence - lastSequence - 1) }
            lastSequence = sequence
            if flaggedError {
                counts.flaggedError += 1
                return
            }
            counts.captured += 1
            if hasPending { counts.superseded += 1 }
            pending.bytes.removeAll(keepingCapacity: true)
            pending.bytes.append(contentsOf: bytes)
            pending.sequence = sequence
            pending.timestamp = timestamp
            hasPending = true
            recentTimestamps.append(timestamp)
            if recentTimestamps.count > 31 { recentTimestamps.removeFirst() }
            if let first = recentTimestamps.first, let last = recentTimestamps.last, last > first {
                counts.framesPerSecond = Double(recentTimestamps.count - 1) * 1e9 / Double(last - first)
            }
            lock.signal()
        }
    }

    /// Drops the frame waiting, if any, so the next `take` gets one captured after this call.
    package func discardPending() {
        lock.withLock {
            if hasPending { counts.superseded += 1 }
            hasPending = false
        }
    }

    /// Counts a stream frame the source dropped, and keeps the notice that says why.
    package func reject(_ drop: CameraNotice.Drop, source: String) {
        lock.withLock {
            if case .oversized = drop { counts.oversized += 1 } else { counts.broken += 1 }
            if notices.count < LatestFrame.keptNotices {
                notices.append(.frameDropped(source: source, drop))
            } else {
                noticesNotKept += 1
            }
        }
    }

    package func setSkippedBytes(_ count: Int) {
        lock.withLock { counts.skippedBytes = count }
    }

    /// The capture thread's reports since the last call, at most `keptNotices` of them and then
    /// how many more there were.
    package func takeNotices() -> [CameraNotice] {
        lock.withLock {
            defer {
                notices.removeAll(keepingCapacity: true)
                noticesNotKept = 0
            }
            return noticesNotKept == 0 ? notices : notices + [.noticesNotShown(count: noticesNotKept)]
        }
    }

    package func finish(_ reason: CaptureEnd) {
        lock.withLock {
            if end == nil { end = reason }
            lock.signal()
        }
    }

    /// Waits until `instant` (a `MonotonicClock` time) unless capture ends first; returns how
    /// it ended then, so a run reading at intervals ends with its source, not at the next tick.
    package func waitForEnd(until instant: UInt64) -> CaptureEnd? {
        lock.withLock {
            while end == nil && lock.wait(until: instant) {}
            return end
        }
    }

    /// Waits for a frame newer than the last one taken and swaps it into `frame` (whose old
    /// storage is reused for the next capture). Returns the end instead once capture has ended.
    func take(into frame: inout Frame) -> CaptureEnd? {
        lock.withLock {
            while !hasPending && end == nil { lock.wait() }
            if let end {
                guard case .endOfStream = end, hasPending else { return end }
            }
            swap(&frame, &pending)
            hasPending = false
            return nil
        }
    }

    package var snapshot: CaptureCounts { lock.withLock { counts } }
}

extension WorkerThread {
    /// The capture thread: failing to start it is a camera set-up error.
    static func capture(_ run: @escaping () -> Void) throws(CameraError) -> WorkerThread {
        do {
            return try WorkerThread(run)
        } catch {
            throw .setupFailed(path: "plantleaf", step: "starting the capture thread", reason: error.reason)
        }
    }
}
