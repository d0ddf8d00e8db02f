import PlantLeafCore
import PlantLeafSupport

/// How a session went, for its last report: counts, frame ages, and why it ended.
public struct CameraSummary: Sendable {
    public var counts: CaptureCounts
    public var classified: Int
    /// Classified frames by verdict (verdicts no frame got are absent).
    public var verdicts: [Verdict: Int] = [:]
    /// Frames the converter refused (damaged MJPEG, short buffers).
    public var corrupt: Int
    public var lastCorruptFrame: FrameError?
    public var ages: [Double]
    /// The signal that ended the run (SIGINT, SIGTERM), if one did.
    public var signal: Int32?
    /// Set when the run ended on a fault (camera unplugged, no frames).
    public var failure: CameraError?
    /// A stream input ended (end of file, or the writer closed the pipe).
    public var streamEnded = false
    /// With an interval: captures that failed and were retried.
    public var failedAttempts = 0

    /// The frame ages' median and 99th percentile (as `LatencyStatistics` defines them); nil
    /// before any frame was classified.
    public var medianAge: Double? { LatencyStatistics(ages)?.median }
    public var p99Age: Double? { LatencyStatistics(ages)?.p99 }
}
