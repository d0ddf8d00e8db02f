import PlantLeafCore

/// A streaming V4L2 device as a frame source: each filled buffer is copied into the mailbox and
/// queued again at once, so the driver never runs out of buffers while inference is busy.
final class V4L2FrameSource: FrameSource {
    private let capture: CaptureStream

    init(capture: CaptureStream) {
        self.capture = capture
    }

    var name: String { capture.device.path }

    func next(until deadline: UInt64, wake: Int32, into mailbox: LatestFrame) throws(CameraError) -> FrameSourceStep {
        switch try capture.next(until: deadline, wakeDescriptor: wake) {
        case .frame(let buffer):
            mailbox.put(buffer.bytes, sequence: buffer.sequence, timestamp: buffer.timestamp, flaggedError: buffer.flaggedError)
            try capture.requeue(buffer.index)
            return .delivered
        case .woken:
            return .woken
        case nil:
            return .waiting
        }
    }
}
