import PlantLeafCore
import Glibc

/// A frame as the session classifies it: its bytes copied out of the driver's buffer or the
/// stream, so the buffer goes straight back to its owner.
struct Frame {
    var bytes: [UInt8] = []
    var sequence: UInt32 = 0
    /// CLOCK_MONOTONIC nanoseconds of capture.
    var timestamp: UInt64 = 0
}

/// What a frame source did in one `next` call.
package enum FrameSourceStep: Sendable, Equatable {
    /// At least one frame went into the mailbox.
    case delivered
    /// Nothing whole yet: the wait reached its deadline, or bytes came that made no frame.
    case waiting
    /// The wake descriptor became readable: a stop was asked for.
    case woken
    /// The stream ended (end of file, the writer closed the pipe).
    case ended
}

/// Where frames come from — a V4L2 device or a motion-JPEG stream, or a scripted source in the
/// tests. The source only waits and delivers; `CaptureLoop` decides when the run is over, so
/// the timing rules (frame time-out, duration) are written once for every source.
package protocol FrameSource: AnyObject {
    /// How the source is named in messages: the device path, the file, "standard input".
    var name: String { get }
    /// Waits until `deadline` (a `MonotonicClock` time) for the next frame, or until `wake` is
    /// readable, and hands what arrives to `mailbox`: frames with `put`, dropped frames with
    /// `reject`.
    ///
    /// - Throws: `CameraError` when the source fails (unplugged, a read error).
    func next(until deadline: UInt64, wake: Int32, into mailbox: LatestFrame) throws(CameraError) -> FrameSourceStep
}

/// The capture thread's work for every source: asks the source for frames until a stop, the end
/// of the stream, `frameTimeout` seconds without a frame (frames, not bytes: a stream of garbage
/// is as silent as an unplugged camera) or the end of the run's duration, and tells the mailbox
/// which it was.
package final class CaptureLoop: @unchecked Sendable {
    // Touched only by the capture thread while it runs.
    private let source: any FrameSource
    private let mailbox: LatestFrame
    private let wake: Int32
    private let frameTimeout: Double
    private let deadline: UInt64?

    /// - Parameter deadline: when the run's duration is over (a `MonotonicClock` time), if it has one.
    package init(source: any FrameSource, mailbox: LatestFrame, wake: Int32, frameTimeout: Double, deadline: UInt64?) {
        self.source = source
        self.mailbox = mailbox
        self.wake = wake
        self.frameTimeout = frameTimeout
        self.deadline = deadline
    }

    package func run() {
        var lastFrame = MonotonicClock.nanoseconds()
        while true {
            let now = MonotonicClock.nanoseconds()
            if let deadline, now >= deadline { return mailbox.finish(.durationReached) }
            let silence = lastFrame + UInt64(frameTimeout * 1e9)
            guard now < silence else { return mailbox.finish(.failed(.noFrame(path: source.name, timeout: frameTimeout))) }
            do {
                switch try source.next(until: min(silence, deadline ?? silence), wake: wake, into: mailbox) {
                case .delivered: lastFrame = MonotonicClock.nanoseconds()
                case .waiting: continue
                case .woken: return mailbox.finish(.stopped)
                case .ended: return mailbox.finish(.endOfStream)
                }
            } catch {
                return mailbox.finish(.failed(error))
            }
        }
    }
}
