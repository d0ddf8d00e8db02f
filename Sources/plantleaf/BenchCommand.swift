import PlantLeafKit

/// `plantleaf bench`: per-stage latency of the classify pipeline on this machine, with the
/// machine's state recorded; `plantleaf bench compare` lines up saved reports.
enum BenchCommand {
    static let help = """
        USAGE: plantleaf bench [options]
               plantleaf bench compare A.json B.json ...

        Times the classify pipeline stage by stage (decode, resize + quantise, invoke, postprocess,
        end to end) on one image, and records the machine: CPU, board, governor, frequencies,
        temperatures, kernel, and the sha256 of the model and of libLiteRt.so.

        OPTIONS:
          --model FILE         .tflite model (default: PlantVillage int8, installed with plantleaf)
          --labels FILE        class names for the model (default: the default model's own)
          --image FILE         PNG or JPEG to classify (default: the first leaf in the project's \(ProjectPaths.sampleFolder))
          --synthetic          use a built-in 256x256 leaf JPEG made in memory instead of a file
          --runs N             measured runs per thread count, 1 to 1000000 (default: 100)
          --warmup N           unmeasured runs first, 0 to 1000000 (default: 10)
          --threads LIST       CPU thread counts to measure, each 1 to 64, e.g. 1,2,4 (default: 1)
          --min-seconds S      keep measuring past --runs until S seconds were measured, 0 to 86400 (default: 0)
          --json FILE          write everything to FILE as JSON (schema_version \(BenchReport.schemaVersion))
          --csv FILE           write one row per run per stage to FILE
          -h, --help           show this help

        compare prints the median and p99 of every stage from each report side by side, with each
        median's ratio to the first file's.

        Warnings (stderr) say when the governor is not 'performance', the SoC passed 80 °C, or a
        core's frequency dropped during the run.

        EXIT CODES: 0 done, 2 usage error, or the model, image, runtime, a report file or stdout could not be used.
        """

    /// The default image is the first PlantVillage sample (in sorted order) of the project's
    /// sample folder.
    static func defaultImage() -> String {
        let folder = ProjectPaths.defaultSampleFolder()
        for case .file(let path) in ImageFiles.expand([PathName(folder)]) { if let text = path.string { return text } }
        return folder  // no image there: the benchmark's error then names the folder
    }

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.first == "compare" { return compare(Array(arguments.dropFirst())) }
        let parsed: Arguments
        let settings: BenchSettings
        do {
            parsed = try Arguments(arguments, valued: ["--model", "--labels", "--image", "--runs", "--warmup", "--threads",
                                                       "--min-seconds", "--json", "--csv"],
                                   flags: ["--synthetic", "--help", "-h"])
            if parsed.has("--help") || parsed.has("-h") {
                Console.out(help)
                return ExitCode.success
            }
            guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
            if parsed.has("--synthetic"), parsed.string("--image") != nil { throw UsageError("give --image or --synthetic, not both") }
            if let json = parsed.string("--json"), let csv = parsed.string("--csv"), FileWriter.sameFile(json, csv) {
                throw UsageError("--json and --csv name the same file, \(json): give each its own")
            }
            for option in ["--json", "--csv"] {
                guard let path = parsed.string(option) else { continue }
                do {
                    try FileWriter.checkWritable(path)
                } catch {
                    throw UsageError("cannot write \(option) file \(path): \(error)")
                }
            }
            let minimumSeconds = try parsed.double("--min-seconds", range: 0...86_400) ?? 0
            let defaults = ProjectPaths.defaultModelAndLabels()
            settings = BenchSettings(modelPath: parsed.string("--model") ?? defaults.modelPath,
                                     labelsPath: parsed.string("--labels") ?? defaults.labelsPath,
                                     imagePath: parsed.has("--synthetic") ? nil : parsed.string("--image") ?? defaultImage(),
                                     runs: try parsed.integer("--runs", default: 100, range: 1...1_000_000),
                                     warmup: try parsed.integer("--warmup", default: 10, range: 0...1_000_000),
                                     threadCounts: try threadCounts(parsed.string("--threads")),
                                     minimumSeconds: minimumSeconds)
        } catch {
            Console.error("plantleaf bench: \(error) (see plantleaf bench --help)")
            return ExitCode.setupFailure
        }

        let showsProgress = Console.stderrTakesProgress
        let result: BenchResult
        do {
            result = try BenchRunner(settings: settings).run { status in
                if showsProgress { Console.progress(status) }
            }
        } catch {
            if showsProgress { Console.progress(nil) }
            Console.error("plantleaf bench: \(error)")
            return ExitCode.setupFailure
        }
        if showsProgress { Console.progress(nil) }

        Console.out(BenchReport.text(result))
        for warning in result.warnings { Console.error("plantleaf bench: warning: \(warning)") }
        do {
            if let path = parsed.string("--json") { try write(BenchReport.json(result), to: path) }
            if let path = parsed.string("--csv") { try write(BenchReport.csv(result), to: path) }
        } catch {
            Console.error("plantleaf bench: \(error)")
            return ExitCode.setupFailure
        }
        return ExitCode.success
    }

    /// "1,2,4" → [1, 2, 4]; each at least 1, none repeated.
    static func threadCounts(_ text: String?) throws(UsageError) -> [Int] {
        guard let text else { return [1] }
        var counts: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let count = Int(part) else { throw UsageError("--threads must be whole numbers separated by commas, got '\(text)'") }
            guard OptionRange.threads.contains(count) else {
                throw UsageError("--threads values must be from \(OptionRange.threads.lowerBound) to \(OptionRange.threads.upperBound), got \(count)")
            }
            guard !counts.contains(count) else { throw UsageError("--threads lists \(count) twice") }
            counts.append(count)
        }
        return counts
    }

    private static func write(_ text: String, to path: String) throws(BenchError) {
        do {
            try FileWriter.write(text, to: path)
        } catch {
            throw .outputUnwritable(path: path, reason: error.reason)
        }
    }

    private static func compare(_ arguments: [String]) -> Int32 {
        let parsed: Arguments
        do {
            parsed = try Arguments(arguments, valued: [], flags: ["--help", "-h"])
            if parsed.has("--help") || parsed.has("-h") {
                Console.out(help)
                return ExitCode.success
            }
            guard parsed.positionals.count >= 2 else { throw UsageError("compare needs at least two JSON reports") }
        } catch {
            Console.error("plantleaf bench compare: \(error) (see plantleaf bench --help)")
            return ExitCode.setupFailure
        }
        var reports: [(path: String, report: StoredBenchReport)] = []
        for path in parsed.positionals {
            do {
                reports.append((path, try StoredBenchReport.load(path: path)))
            } catch {
                Console.error("plantleaf bench compare: \(error)")
                return ExitCode.setupFailure
            }
        }
        Console.out(BenchComparison.render(reports))
        return ExitCode.success
    }
}
