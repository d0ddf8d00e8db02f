import PlantLeafCore
import PlantLeafSupport

/// The capture thread's work for every source: asks the source for frames until a stop, the end
/// of the stream, `frameTimeout` seconds without a frame (frames, not bytes: a stream of garbage
/// is as silent as an unplugged camera) or the end of the run's duration, and tells the mailbox
/// which it was.
///
/// Sendable unchecked because a frame source is not Sendable (a device's buffers, a stream's
/// parser: state for one thread) yet is handed to the capture thread and back: the thread alone
/// uses the source from `run`'s start until it is joined, after which its opener stops and
/// closes it. The compiler sees the hand-over but not the join that ends it.
package final class CaptureLoop: @unchecked Sendable {
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
