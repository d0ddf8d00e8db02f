/// A frame as the session classifies it: its bytes copied out of the driver's buffer or the
/// stream, so the buffer goes straight back to its owner.
struct Frame {
    var bytes: [UInt8] = []
    var sequence: UInt32 = 0
    /// CLOCK_MONOTONIC nanoseconds of capture.
    var timestamp: UInt64 = 0
}
