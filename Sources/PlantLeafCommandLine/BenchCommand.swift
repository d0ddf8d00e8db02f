import PlantLeafCore
import PlantLeafCamera
import PlantLeafBench
import PlantLeafSupport

/// `plantleaf bench`: per-stage latency of the classify pipeline on this machine, with the
/// machine's state recorded; `plantleaf bench compare` lines up saved reports.
enum BenchCommand: Subcommand {
    static let configuration = CommandConfiguration(
        name: "bench", abstract: "per-stage latency on this machine; bench compare A.json B.json ...",
        options: BenchOptions.helpTable, helpLabelWidth: 21)

    /// The help text above the options.
    static let helpIntroduction = """
        USAGE: plantleaf bench [options]
               plantleaf bench compare [--html FILE] A.json B.json ...

        Times the classify pipeline stage by stage (prepare: decode, resize and quantise into the
        input tensor; invoke; postprocess; end to end; and the decoder alone, the floor prepare is
        measured against) on one image, and records the machine: CPU, board, governor, frequencies,
        temperatures, kernel, and the sha256 of the model and of libLiteRt.so.

        OPTIONS:
        """

    /// The help text below the options.
    static let helpConclusion = """
        compare says how the reports differ (image, model, runtime, threads, CPUs, version) and repeats
        their warnings, then prints every stage's median, interquartile range and p99 side by side,
        with each median's ratio to the first file's, marked ~ where the two interquartile ranges
        overlap (within the runs' noise); with --profile reports, the ops too.

        Warnings (stderr) say when the governor is not 'performance', the SoC passed 80 °C, or a
        core's frequency dropped during the run.

        EXIT CODES: 0 done, 2 usage error, or the model, image, runtime, a report file or stdout could not be used.
        """

    /// The default image: the first PlantVillage sample (in sorted order) of the checkout the
    /// binary was built in; nil, the synthetic leaf, where there is none (an install), so bench
    /// runs with no options from any folder.
    static func defaultImage() -> String? {
        guard let folder = ProjectPaths.defaultSampleFolder() else { return nil }
        for case .file(let path) in ImageFiles.expand([PathName(folder)]) { if let text = path.string { return text } }
        return nil
    }

    static func commandLine(_ arguments: [String]) -> String {
        arguments.first == "compare" ? "plantleaf bench compare" : "plantleaf bench"
    }

    static func run(_ arguments: [String], bytes _: [[UInt8]]) -> Int32 {
        let command = commandLine(arguments)
        let options: BenchOptions
        do {
            options = try BenchOptions.parse(arguments)
        } catch {
            Console.error("\(command): \(error) (see plantleaf bench --help)")
            return ExitCode.setupFailure
        }
        if options.help {
            Console.out(help)
            return ExitCode.success
        }
        if let reports = options.comparedReports { return compare(reports, htmlPath: options.htmlPath) }
        let settings = BenchSettings(classifier: ProjectPaths.classifierOptions(modelPath: options.files.modelPath, labelsPath: options.files.labelsPath,
                                                                                threads: options.threadCounts[0],
                                                                                weightCache: !options.noCache),
                                     imagePath: options.synthetic ? nil : options.imagePath ?? defaultImage(),
                                     runs: options.runs, warmup: options.warmup, threadCounts: options.threadCounts,
                                     minimumSeconds: options.minimumSeconds, softwareVersion: ProjectPaths.version,
                                     profile: options.profile, cpus: options.cpus)

        let showsProgress = Console.stderrTakesProgress
        let result: BenchResult
        do {
            result = try BenchRunner(settings: settings).run { status in
                if showsProgress { Console.progress(status) }
            }
        } catch {
            if showsProgress { Console.progress(nil) }
            Console.error("plantleaf bench: \(Remedy.line(error))")
            return ExitCode.setupFailure
        }
        if showsProgress { Console.progress(nil) }

        Console.out(BenchReport.text(result))
        for warning in result.warnings { Console.error("plantleaf bench: warning: \(warning)") }
        do {
            if let path = options.jsonPath { try write(BenchReport.json(result), to: path) }
            if let path = options.csvPath { try write(BenchReport.csv(result), to: path) }
        } catch {
            Console.error("plantleaf bench: \(Remedy.line(error))")
            return ExitCode.setupFailure
        }
        return ExitCode.success
    }

    private static func write(_ text: String, to path: String) throws(BenchError) {
        do {
            try FileWriter.write(text, to: path)
        } catch {
            throw .outputUnwritable(path: path, reason: error.reason)
        }
    }

    private static func compare(_ paths: [String], htmlPath: String?) -> Int32 {
        var reports: [(path: String, report: StoredBenchReport)] = []
        for path in paths {
            do {
                reports.append((path, try StoredBenchReport.load(path: path)))
            } catch {
                Console.error("plantleaf bench compare: \(Remedy.line(error))")
                return ExitCode.setupFailure
            }
        }
        Console.out(BenchComparison.render(reports))
        if let htmlPath { return CompareHTMLOption.write(reports, to: htmlPath) }
        return ExitCode.success
    }
}
