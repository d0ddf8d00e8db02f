import PlantLeafCore
/// The stages timed on every run, in pipeline order, named as in `StageTimings`; `endToEnd`
/// spans all of them. The image's bytes are in memory, so there is no read stage.
public enum BenchStage: String, CaseIterable, Sendable {
    case prepare
    case invoke
    case postprocess
    case endToEnd = "end_to_end"
    /// The decoder alone on the same bytes at the same DCT scale, its rows thrown away: the
    /// floor `prepare` is measured against. Timed after, and not part of, end to end.
    case decoderAlone = "decoder_alone"

    /// The name used in the text report.
    public var title: String {
        switch self {
        case .prepare, .invoke, .postprocess: return rawValue
        case .endToEnd: return "end to end"
        case .decoderAlone: return "decoder alone"
        }
    }
}

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

/// The machine's load, frequencies and temperatures around and between runs, for the warnings.
public struct ConditionLog: Sendable, Equatable {
    /// The 1-minute load average just before the benchmark started: other work competing for the CPU.
    public var loadAverageBefore: Double?
    public var temperaturesBefore: [ThermalReading] = []
    public var temperaturesAfter: [ThermalReading] = []
    /// The hottest reading of any zone at any sample, before, during or after.
    public var peakCelsius: Double?
    public var frequenciesBefore: [CoreFrequency] = []
    public var frequenciesAfter: [CoreFrequency] = []
    /// Per core, the largest fall of the current frequency below the highest seen earlier in the run.
    public var frequencyDrops: [FrequencyDrop] = []
    /// The highest current frequency seen so far per core, which later samples are compared with.
    private var highestMHz: [Int: Double] = [:]

    /// An empty log, before the first sample.
    public init() {}

    /// Takes in one sample: updates the peak temperature and each core's largest frequency drop.
    public mutating func record(temperatures: [ThermalReading], frequencies: [CoreFrequency]) {
        for reading in temperatures where reading.celsius > (peakCelsius ?? -Double.infinity) { peakCelsius = reading.celsius }
        for core in frequencies {
            guard let current = core.currentMHz else { continue }
            let highest = max(highestMHz[core.cpu] ?? current, current)
            highestMHz[core.cpu] = highest
            guard current < highest else { continue }
            let drop = FrequencyDrop(cpu: core.cpu, fromMHz: highest, toMHz: current)
            if let existing = frequencyDrops.firstIndex(where: { $0.cpu == core.cpu }) {
                if drop.fraction > frequencyDrops[existing].fraction { frequencyDrops[existing] = drop }
            } else {
                frequencyDrops.append(drop)
            }
        }
    }
}

/// A core's clock falling during a run: from the highest frequency seen to a lower one.
public struct FrequencyDrop: Sendable, Equatable {
    public var cpu: Int
    public var fromMHz: Double
    public var toMHz: Double

    /// How far the frequency fell, as a fraction of where it was (0.25 = a quarter lower).
    public var fraction: Double { fromMHz > 0 ? (fromMHz - toMHz) / fromMHz : 0 }
}

/// What the weight cache saves: a model load + compile without it (cold: what a process with no
/// cache, or a new model, costs) and one reading it (warm), on the first thread count.
public struct WeightCacheTiming: Sendable {
    public var folder: String
    /// What the first compile found: "built", "loaded" or "unavailable: REASON".
    public var state: String
    public var coldMilliseconds: Double
    /// nil when the cache could not be used.
    public var warmMilliseconds: Double?
}

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
