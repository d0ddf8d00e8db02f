import PlantLeafCore

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
