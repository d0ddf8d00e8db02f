import PlantLeafBench
import PlantLeafCore

/// `plantleaf bench`'s (and `bench compare`'s) arguments, parsed and range-checked without doing anything.
public struct BenchOptions: OptionGroup, Equatable {
    public var help = false
    /// `bench compare A.json B.json ...`: the reports; nil for a measuring run.
    public var comparedReports: [String]?
    /// `bench compare --html FILE`: also write the comparison as a page.
    public var htmlPath: String?
    /// --model and --labels.
    public var files = ModelFiles()
    @Bound(Declared.image) public var imagePath: String?
    @Bound(Declared.synthetic) public var synthetic: Bool
    @Bound(Declared.profile) public var profile: Bool
    @Bound(Declared.runs) public var runs: Int
    @Bound(Declared.warmup) public var warmup: Int
    @Bound(Declared.threadCounts) public var threadCounts: [Int]
    /// --cpus LIST: the CPUs to measure on.
    @Bound(Declared.cpus) public var cpus: CPUSet?
    /// --no-cache: compile without the XNNPACK weight cache.
    @Bound(SharedOptions.noCache.described(.lines(["compile without XNNPACK's weight cache (see plantleaf classify --help)"])))
    public var noCache: Bool
    @Bound(Declared.minimumSeconds) public var minimumSeconds: Double
    @Bound(Declared.json) public var jsonPath: String?
    @Bound(Declared.csv) public var csvPath: String?

    /// A measuring run with the defaults.
    public init() {}

    /// - Throws: `UsageError` for --image with --synthetic, or output files that clash or cannot be written.
    public func validate() throws(UsageError) {
        if synthetic, imagePath != nil { throw UsageError("give --image or --synthetic, not both") }
        if let json = jsonPath, let csv = csvPath, FileWriter.sameFile(json, csv) {
            throw UsageError("--json and --csv name the same file, \(json): give each its own")
        }
        // Checked now, not after minutes of measuring.
        for (option, path) in [(Declared.json.name, jsonPath), (Declared.csv.name, csvPath)] {
            guard let path else { continue }
            do {
                try FileWriter.checkWritable(path)
            } catch {
                throw UsageError("cannot write \(option) file \(path): \(error)")
            }
        }
    }

    /// The options only this subcommand takes, each declared once.
    enum Declared {
        /// --runs's range.
        static let runCounts = 1...1_000_000
        /// --warmup's range.
        static let warmupCounts = 0...1_000_000
        /// --min-seconds's range: up to a day.
        static let measuredSeconds = 0.0...86_400.0

        static let image = Declare.text("--image", placeholder: "FILE",
                                        help: .lines(["PNG or JPEG to classify (default: the first leaf in the checkout's \(ProjectPaths.sampleFolder)",
                                                      "when plantleaf was built in one, else the synthetic leaf)"]))
        static let synthetic = Flag("--synthetic", help: .lines(["use a built-in 256x256 leaf JPEG made in memory instead of a file"]))
        static let profile = Flag("--profile", help: .lines(["also time each op of invoke with LiteRT's profiler, on a second interpreter",
                                                             "after the measured runs (so they are not slowed by it): the slowest ops",
                                                             "and a total per op type"]))
        static let runs = Declare.integer("--runs", range: runCounts, default: 100) { range, fallback in
            .lines(["measured runs per thread count, \(range) (default: \(fallback))"])
        }
        static let warmup = Declare.integer("--warmup", range: warmupCounts, default: 10) { range, fallback in
            .lines(["unmeasured runs first, \(range) (default: \(fallback))"])
        }
        /// --threads LIST: bench measures several counts, each one classify's --threads would take.
        static let threadCounts = Option<[Int]>(
            "--threads", placeholder: "LIST", default: [1],
            help: .lines(["CPU thread counts to measure, each \(OptionRange.phrase(OptionRange.threads)), e.g. 1,2,4 (default: 1)"])
        ) { text throws(UsageError) in
            var counts: [Int] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let count = Int(part) else { throw UsageError("--threads must be whole numbers separated by commas, got '\(text)'") }
                guard OptionRange.threads.contains(count) else {
                    throw UsageError("--threads values must be from \(OptionRange.phrase(OptionRange.threads)), got \(count)")
                }
                guard !counts.contains(count) else { throw UsageError("--threads lists \(count) twice") }
                counts.append(count)
            }
            return counts
        }
        static let cpus = Option<CPUSet?>(
            "--cpus", placeholder: "LIST", default: nil,
            help: .lines(["measure on these CPUs only, e.g. 4-7 for a big.LITTLE board's big cores",
                          "(default: any; the report records them)"])
        ) { text throws(UsageError) in
            do throws(CPUSetError) {
                return try CPUSet(parsing: text)
            } catch {
                throw UsageError(error.message)
            }
        }
        static let minimumSeconds = Declare.number("--min-seconds", placeholder: "S", range: measuredSeconds, default: 0) { range, fallback in
            .lines(["keep measuring past --runs until S seconds were measured, \(range) (default: \(fallback))"])
        }
        static let json = Declare.text("--json", placeholder: "FILE",
                                       help: .lines(["write everything to FILE as JSON (schema_version \(BenchReport.schemaVersion))"]))
        static let csv = Declare.text("--csv", placeholder: "FILE", help: .lines(["write one row per run per stage to FILE"]))
        static let html = Declare.text("--html", placeholder: "FILE",
                                       help: .lines(["compare only: also write the comparison to FILE as one self-contained HTML page",
                                                     "(per-stage latency charts, speed-up over threads, op profiles; nothing fetched)"]))

    }

    /// The options of a measuring run, but -h, --help.
    private static let measuringOptions: [OptionSpec] = BenchOptions.options

    /// Every option a measuring run takes.
    public static let optionTable: [OptionSpec] = measuringOptions + [SharedOptions.help.spec]

    /// Every option bench compare takes.
    public static let compareOptionTable: [OptionSpec] = [Declared.html.spec, SharedOptions.help.spec]

    /// What bench's help lists: a measuring run's options, then compare's, then -h, --help once.
    static let helpTable: [OptionSpec] = measuringOptions + compareOptionTable

    /// bench's (or bench compare's) arguments, range-checked.
    /// - Throws: `UsageError` for an unknown option, a value out of range, or output files that clash.
    public static func parse(_ arguments: [String]) throws(UsageError) -> BenchOptions {
        var options = BenchOptions()
        if arguments.first == "compare" {
            let parsed = try Arguments(Array(arguments.dropFirst()), options: compareOptionTable)
            options.help = parsed.has(SharedOptions.help)
            guard options.help || parsed.positionals.count >= 2 else { throw UsageError("compare needs at least two JSON reports") }
            // Standard input reads once: a second - would find it empty.
            guard options.help || parsed.positionals.count(where: { $0 == FileReader.standardInput }) <= 1 else {
                throw UsageError("- (standard input) can be given once")
            }
            options.comparedReports = parsed.positionals
            options.htmlPath = try CompareHTMLOption.check(try parsed.value(Declared.html), reports: parsed.positionals)
            return options
        }
        let parsed = try Arguments(arguments, options: optionTable)
        guard !parsed.has(SharedOptions.help) else {
            options.help = true
            return options
        }
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
        return try read(parsed)
    }
}
