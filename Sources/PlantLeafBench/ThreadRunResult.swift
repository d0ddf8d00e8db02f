import PlantLeafCore
import PlantLeafSupport

/// Everything measured with one thread count.
public struct ThreadRunResult: Sendable {
    public var threads: Int
    /// Creating the classifier: model load, compile (XNNPACK delegate), buffers, labels.
    public var loadCompileMilliseconds: Double
    /// The invoke time of the first run after compiling, before any warm-up.
    public var firstInferenceMilliseconds: Double
    /// Every measured run's time per stage, in run order.
    public var samples: [BenchStage: [Double]]
    public var statistics: [BenchStage: LatencyStatistics]
    /// Wall time spent in the measured runs.
    public var measuredSeconds: Double
    /// The process's peak resident memory so far (getrusage): it never falls from one thread
    /// count to the next.
    public var peakResidentKiB: Int
    /// What the model made of the image, as a check that the pipeline ran on a real image.
    public var topClass: ScoredClass?
    /// Whether that class may be read as an answer, by the classify policy.
    public var verdict: Verdict?
    /// Where invoke's time goes op by op (`--profile`), measured apart from the stages above.
    public var profile: OpProfile?

    public var runCount: Int { samples[.endToEnd]?.count ?? 0 }

    /// Measured runs per second of wall time, end to end.
    public var imagesPerSecond: Double { measuredSeconds > 0 ? Double(runCount) / measuredSeconds : 0 }
}
