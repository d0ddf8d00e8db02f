import PlantLeafCore

/// A whole benchmark: settings, machine, the files measured, results per thread count.
public struct BenchResult: Sendable {
    public var settings: BenchSettings
    /// Wall-clock start, UTC, ISO 8601 (for the record only; every duration uses the monotonic clock).
    public var startedAt: String
    public var machine: MachineInfo
    public var conditions: ConditionLog
    public var modelSHA256: String
    public var liteRtPath: String
    public var liteRtSHA256: String
    /// dlopen of libLiteRt.so, once per process; kept out of every thread count's load + compile.
    public var libraryLoadMilliseconds: Double
    /// Whether glibc's malloc thresholds were raised before measuring (see `Allocator`).
    public var allocatorSettled: Bool
    public var input: TensorInfo
    /// The image's path, or "synthetic".
    public var imageName: String
    /// The image bytes' sha256: the same image under another name (or another image under the
    /// same name) on another board.
    public var imageSHA256: String
    public var imageFormat: String
    public var imageWidth: Int
    public var imageHeight: Int
    public var imageBytes: Int
    public var runs: [ThreadRunResult]
    /// Model load + compile without and with the weight cache; nil with the cache off.
    public var weightCache: WeightCacheTiming?

    public var warnings: [String] { BenchWarnings.evaluate(machine: machine, conditions: conditions, threadCounts: settings.threadCounts,
                                                                 pinned: settings.cpus) }
}
