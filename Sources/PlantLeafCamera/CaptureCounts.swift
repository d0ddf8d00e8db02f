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
