import PlantLeafBench

extension BenchOptions {
    /// --runs's range.
    static let runCounts = 1...1_000_000
    /// --warmup's range.
    static let warmupCounts = 0...1_000_000
    /// --min-seconds's range: up to a day.
    static let measuredSeconds = 0.0...86_400.0

    /// Where the help's defaults come from: what parse leaves when an option is not given.
    private static let defaults = BenchOptions()

    /// --threads's line: the range of each count and the counts measured without it.
    private static let threadsLine: String = {
        let counts: String = defaults.threadCounts.map(String.init).joined(separator: ",")
        return "CPU thread counts to measure, each \(OptionRange.phrase(OptionRange.threads)), e.g. 1,2,4 (default: \(counts))"
    }()

    /// --min-seconds's line.
    private static let minimumSecondsLine: String = {
        let range: String = OptionRange.phrase(measuredSeconds), fallback: String = OptionRange.number(defaults.minimumSeconds)
        return "keep measuring past --runs until S seconds were measured, \(range) (default: \(fallback))"
    }()

    /// The options of a measuring run, but -h, --help.
    private static let measuringOptions: [OptionSpec] = [
        OptionSpec.model,
        OptionSpec("--labels", .valued(placeholder: "FILE"), .lines(["class names for the model (default: the default model's own)"])),
        OptionSpec("--image", .valued(placeholder: "FILE"),
                   .lines(["PNG or JPEG to classify (default: the first leaf in the checkout's \(ProjectPaths.sampleFolder)",
                           "when plantleaf was built in one, else the synthetic leaf)"])),
        OptionSpec("--synthetic", .flag, .lines(["use a built-in 256x256 leaf JPEG made in memory instead of a file"])),
        OptionSpec("--profile", .flag,
                   .lines(["also time each op of invoke with LiteRT's profiler, on a second interpreter",
                           "after the measured runs (so they are not slowed by it): the slowest ops",
                           "and a total per op type"])),
        OptionSpec("--runs", .valued(placeholder: "N"),
                   .lines(["measured runs per thread count, \(OptionRange.phrase(runCounts)) (default: \(defaults.runs))"])),
        OptionSpec("--warmup", .valued(placeholder: "N"),
                   .lines(["unmeasured runs first, \(OptionRange.phrase(warmupCounts)) (default: \(defaults.warmup))"])),
        OptionSpec("--threads", .valued(placeholder: "LIST"), .lines([threadsLine])),
        OptionSpec("--cpus", .valued(placeholder: "LIST"),
                   .lines(["measure on these CPUs only, e.g. 4-7 for a big.LITTLE board's big cores",
                           "(default: any; the report records them)"])),
        OptionSpec("--no-cache", .flag, .lines(["compile without XNNPACK's weight cache (see plantleaf classify --help)"])),
        OptionSpec("--min-seconds", .valued(placeholder: "S"), .lines([minimumSecondsLine])),
        OptionSpec("--json", .valued(placeholder: "FILE"),
                   .lines(["write everything to FILE as JSON (schema_version \(BenchReport.schemaVersion))"])),
        OptionSpec("--csv", .valued(placeholder: "FILE"), .lines(["write one row per run per stage to FILE"])),
    ]

    /// Every option a measuring run takes.
    public static let optionTable: [OptionSpec] = measuringOptions + [OptionSpec.helpFlag]

    /// Every option bench compare takes.
    public static let compareOptionTable: [OptionSpec] = [
        OptionSpec("--html", .valued(placeholder: "FILE"),
                   .lines(["compare only: also write the comparison to FILE as one self-contained HTML page",
                           "(per-stage latency charts, speed-up over threads, op profiles; nothing fetched)"])),
        OptionSpec.helpFlag,
    ]

    /// What bench's help lists: a measuring run's options, then compare's, then -h, --help once.
    static let helpTable: [OptionSpec] = measuringOptions + compareOptionTable
}
