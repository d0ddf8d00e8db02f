import PlantLeafCore
import Glibc
import PlantLeafSupport

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
package final class LatestFrame: Sendable {
    /// Notices kept between two `takeNotices` calls: a stream of damaged frames must not fill
    /// memory while inference is busy; the rest are counted (`CameraNotice.noticesNotShown`).
    package static let keptNotices = 16

    private struct Mailbox {
        var pending = Frame()
        var hasPending = false
        var end: CaptureEnd?
        var counts = CaptureCounts()
        var lastSequence: UInt32?
        var recentTimestamps: [UInt64] = []
        /// Reports from the capture thread (dropped stream frames), for the caller to show.
        var notices: [CameraNotice] = []
        var noticesNotKept = 0
    }

    private let mailbox = Lock(Mailbox())

    package init() {}

    /// Records a captured frame: counts sequence gaps, and unless the source flagged it as bad,
    /// copies its bytes in place of any frame not yet taken.
    package func put(_ bytes: UnsafeRawBufferPointer, sequence: UInt32, timestamp: UInt64, flaggedError: Bool = false) {
        mailbox.withLock { mailbox in
            if let lastSequence = mailbox.lastSequence, sequence > lastSequence &+ 1 {
                mailbox.counts.dropped += Int(sequence - lastSequence - 1)
            }
            mailbox.lastSequence = sequence
            if flaggedError {
                mailbox.counts.flaggedError += 1
                return
            }
            mailbox.counts.captured += 1
            if mailbox.hasPending { mailbox.counts.superseded += 1 }
            mailbox.pending.bytes.removeAll(keepingCapacity: true)
            mailbox.pending.bytes.append(contentsOf: bytes)
            mailbox.pending.sequence = sequence
            mailbox.pending.timestamp = timestamp
            mailbox.hasPending = true
            mailbox.recentTimestamps.append(timestamp)
            if mailbox.recentTimestamps.count > 31 { mailbox.recentTimestamps.removeFirst() }
            if let first = mailbox.recentTimestamps.first, let last = mailbox.recentTimestamps.last, last > first {
                mailbox.counts.framesPerSecond = Double(mailbox.recentTimestamps.count - 1) * 1e9 / Double(last - first)
            }
            self.mailbox.signal()
        }
    }

    /// Drops the frame waiting, if any, so the next `take` gets one captured after this call.
    package func discardPending() {
        mailbox.withLock { mailbox in
            if mailbox.hasPending { mailbox.counts.superseded += 1 }
            mailbox.hasPending = false
        }
    }

    /// Counts a stream frame the source dropped, and keeps the notice that says why.
    package func reject(_ drop: CameraNotice.Drop, source: String) {
        mailbox.withLock { mailbox in
            if case .oversized = drop { mailbox.counts.oversized += 1 } else { mailbox.counts.broken += 1 }
            if mailbox.notices.count < LatestFrame.keptNotices {
                mailbox.notices.append(.frameDropped(source: source, drop))
            } else {
                mailbox.noticesNotKept += 1
            }
        }
    }

    package func setSkippedBytes(_ count: Int) {
        mailbox.withLock { $0.counts.skippedBytes = count }
    }

    /// The capture thread's reports since the last call, at most `keptNotices` of them and then
    /// how many more there were.
    package func takeNotices() -> [CameraNotice] {
        mailbox.withLock { mailbox in
            defer {
                mailbox.notices.removeAll(keepingCapacity: true)
                mailbox.noticesNotKept = 0
            }
            return mailbox.noticesNotKept == 0 ? mailbox.notices : mailbox.notices + [.noticesNotShown(count: mailbox.noticesNotKept)]
        }
    }

    package func finish(_ reason: CaptureEnd) {
        mailbox.withLock { mailbox in
            if mailbox.end == nil { mailbox.end = reason }
            self.mailbox.signal()
        }
    }

    /// Waits until `instant` (a `MonotonicClock` time) unless capture ends first; returns how
    /// it ended then, so a run reading at intervals ends with its source, not at the next tick.
    package func waitForEnd(until instant: UInt64) -> CaptureEnd? {
        mailbox.withLock(waitingUntil: { $0.end != nil }, deadline: instant) { $0.end }
    }

    /// Waits for a frame newer than the last one taken and swaps it into `frame` (whose old
    /// storage is reused for the next capture). Returns the end instead once capture has ended.
    func take(into frame: inout Frame) -> CaptureEnd? {
        mailbox.withLock(waitingUntil: { $0.hasPending || $0.end != nil }) { mailbox in
            if let end = mailbox.end {
                guard case .endOfStream = end, mailbox.hasPending else { return end }
            }
            swap(&frame, &mailbox.pending)
            mailbox.hasPending = false
            return nil
        }
    }

    /// Swaps a frame that came in since the last one taken into `frame`, if there is one; never waits.
    func takeNewer(into frame: inout Frame) {
        mailbox.withLock { mailbox in
            guard mailbox.hasPending else { return }
            // The frame given back was never read: superseded as if it had waited here.
            mailbox.counts.superseded += 1
            swap(&frame, &mailbox.pending)
            mailbox.hasPending = false
        }
    }

    package var snapshot: CaptureCounts { mailbox.withLock { $0.counts } }
}

extension WorkerThread {
    /// The capture thread: failing to start it is a camera set-up error.
    static func capture(_ run: sending @escaping () -> Void) throws(CameraError) -> WorkerThread {
        do {
            return try WorkerThread(run)
        } catch {
            throw .setupFailed(path: "plantleaf", step: .startCaptureThread, reason: .system(SystemError(error.code)))
        }
    }
}
