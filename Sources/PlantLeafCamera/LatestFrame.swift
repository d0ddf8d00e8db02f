import PlantLeafCore
import Glibc

/// A frame copied out of a driver buffer, so the buffer can go straight back to the driver.
struct CapturedFrame {
    var bytes: [UInt8] = []
    var sequence: UInt32 = 0
    var timestamp: UInt64 = 0
}

/// Counts kept by the capture thread.
public struct CaptureCounts: Sendable, Equatable {
    /// Frames dequeued with data.
    public var captured = 0
    /// Frames the driver lost: gaps in the buffer sequence numbers.
    public var dropped = 0
    /// Buffers the driver marked V4L2_BUF_FLAG_ERROR, skipped.
    public var flaggedError = 0
    /// Frames replaced by a newer one before inference took them (by design: inference always
    /// takes the newest).
    public var superseded = 0
    /// Capture rate over the last second or so of driver timestamps.
    public var framesPerSecond = 0.0
    /// Stream input: frames dropped for breaking off or not being JPEG, and for passing the
    /// frame size limit; bytes skipped between frames (multipart headers, garbage).
    public var broken = 0
    public var oversized = 0
    public var skippedBytes = 0

    /// All counts zero.
    public init() {}
}

/// How the capture thread ended.
enum CaptureEnd {
    case stopped
    case durationReached
    /// A stream input ended: the frame still waiting is classified first.
    case endOfStream
    case failed(CameraError)
}

/// A one-frame mailbox between the capture thread and the inference thread: capture overwrites
/// it with every new frame, inference takes the newest and waits when there is none. Old frames
/// are never queued, so a slow model never sees a stale picture or a growing backlog.
final class LatestFrame: @unchecked Sendable {
    private let lock = Lock()
    private var pending = CapturedFrame()
    private var hasPending = false
    private var end: CaptureEnd?
    private var counts = CaptureCounts()
    private var lastSequence: UInt32?
    private var recentTimestamps: [UInt64] = []
    /// One-line reports from the capture thread (damaged stream frames), for the caller to show.
    private var notices: [String] = []

    /// Records a dequeued buffer: counts sequence gaps, and unless the driver flagged it, copies
    /// its bytes in place of any frame not yet taken.
    func put(_ frame: DequeuedFrame) {
        lock.withLock {
            if let lastSequence, frame.sequence > lastSequence &+ 1 { counts.dropped += Int(frame.sequence - lastSequence - 1) }
            lastSequence = frame.sequence
            if frame.flaggedError {
                counts.flaggedError += 1
                return
            }
            counts.captured += 1
            if hasPending { counts.superseded += 1 }
            pending.bytes.removeAll(keepingCapacity: true)
            pending.bytes.append(contentsOf: frame.bytes)
            pending.sequence = frame.sequence
            pending.timestamp = frame.timestamp
            hasPending = true
            recentTimestamps.append(frame.timestamp)
            if recentTimestamps.count > 31 { recentTimestamps.removeFirst() }
            if let first = recentTimestamps.first, let last = recentTimestamps.last, last > first {
                counts.framesPerSecond = Double(recentTimestamps.count - 1) * 1e9 / Double(last - first)
            }
            lock.signal()
        }
    }

    /// Drops the frame waiting, if any, so the next `take` gets one captured after this call.
    func discardPending() {
        lock.withLock {
            if hasPending { counts.superseded += 1 }
            hasPending = false
        }
    }

    /// Counts a stream frame the parser dropped, with the line that says why.
    func reject(oversized: Bool, notice: String) {
        lock.withLock {
            if oversized { counts.oversized += 1 } else { counts.broken += 1 }
            notices.append(notice)
        }
    }

    func setSkippedBytes(_ count: Int) {
        lock.withLock { counts.skippedBytes = count }
    }

    /// The capture thread's reports since the last call.
    func takeNotices() -> [String] {
        lock.withLock {
            defer { notices.removeAll() }
            return notices
        }
    }

    func finish(_ reason: CaptureEnd) {
        lock.withLock {
            if end == nil { end = reason }
            lock.signal()
        }
    }

    /// Waits for a frame newer than the last one taken and swaps it into `frame` (whose old
    /// storage is reused for the next capture). Returns the end instead once capture has ended.
    func take(into frame: inout CapturedFrame) -> CaptureEnd? {
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

    var snapshot: CaptureCounts { lock.withLock { counts } }
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
