import PlantLeafCore
import PlantLeafCamera
import PlantLeafReport

/// `plantleaf classify`: the top classes for every image file given or found in given folders.
enum ClassifyCommand {
    static let help = """
        USAGE: plantleaf classify [options] PATH...

        Classifies leaf photos (PNG or JPEG, told apart by their bytes). Folders are searched
        recursively for .jpg, .jpeg and .png files. - reads one image from standard input
        (cat leaf.jpg | plantleaf classify -); a file named - is ./-. Only regular files are
        read: FIFOs, devices and sockets are refused, each with an error line.

        Every result carries a verdict (docs/verdicts.md): diagnosis (the top class is the answer),
        uncertain (plant material, but the model is not sure), no-leaf (no plant material in view)
        or no-picture (dark, blown out or flat). The scores are shown whatever the verdict; only a
        diagnosis is an answer.

        OPTIONS:
          --model FILE       .tflite model (default: PlantVillage int8, installed with plantleaf)
          --labels FILE      class names, one a line, in output order (default: the default model's own)
          --top-k N          classes to show per image, 1 to 1000 (default: 3)
          --threads N        CPU threads per inference, 1 to 64 (default: 1)
          --jobs N           images classified at once, each on its own model instance, 1 to 64
                             (default: one per core, divided by --threads)
          --format FORMAT    text, json (one object a line) or csv (default: text)
          --crop MODE        center (largest centred square, default, as camera) or none (whole image)
          --checks LIST      verdict checks to run: picture, vegetation, score, mirror (a second inference
                             of the picture mirrored), comma-separated, or all or none
                             (default: picture,vegetation,score)
          --min-score X      top score below which the score and mirror checks say uncertain, 0 to 1 (default: 0.6)
          --mean M --std S   feed the model (pixel - M) / S instead of what its input tensor implies;
                             M from -1000 to 1000, S above 0 and at most 1000
          --no-cache         compile the model without XNNPACK's weight cache (kept in
                             $XDG_CACHE_HOME/plantleaf, else ~/.cache/plantleaf, so later runs start sooner)
          -h, --help         show this help

        EXIT CODES: 0 every file classified (or the reader of a pipe closed it), 1 some files failed,
        2 usage, model, labels or runtime error, or results that cannot be written to stdout.
        """

    /// `bytes`: the same arguments as the system passed them, for the file names.
    static func run(_ arguments: [String], bytes: [[UInt8]]) -> Int32 {
        let options: ClassifyOptions
        do {
            options = try ClassifyOptions.parse(arguments)
        } catch {
            Console.error("plantleaf classify: \(error) (see plantleaf classify --help)")
            return ExitCode.setupFailure
        }
        if options.help {
            Console.out(help)
            return ExitCode.success
        }
        if let refusal = NonUTF8Argument.first(in: bytes, exempt: Set(options.inputIndices)) {
            Console.error("plantleaf classify: \(refusal) (see plantleaf classify --help)")
            return ExitCode.setupFailure
        }
        let (format, topK, threads) = (options.format, options.topK, options.threads)
        let normalization = options.normalization
        let classifierOptions = ProjectPaths.classifierOptions(modelPath: options.modelPath, labelsPath: options.labelsPath,
                                                               threads: threads, normalization: normalization, crop: options.crop,
                                                               verdictPolicy: options.verdictPolicy, weightCache: !options.noCache)
        let entries = ImageFiles.expand(options.inputIndices.map { PathName(bytes: bytes[$0]) })
        let fileCount = entries.count { if case .file = $0 { return true } else { return false } }
        let progress = Progress(total: entries.count, enabled: Console.stderrTakesProgress && entries.count >= 20)
        let tally = Tally()
        do {
            try BatchClassifier.run(entries, jobs: options.jobs ?? BatchClassifier.defaultJobs(inputs: fileCount, threads: threads), topK: topK,
                                    makeClassifier: { () throws(ClassifierSetupError) -> Classifier in
                                        try Classifier(options: classifierOptions)
                                    },
                                    shortOfWorkers: { short in
                                        Console.error("plantleaf classify: warning: \(short.running) of \(short.asked) jobs running "
                                            + "(lower --jobs or --threads): \(short.reason)")
                                    },
                                    deliver: { outcome in
                                        progress.clear()
                                        // After set-up, so a model error is not preceded by a header.
                                        if format == .csv && tally.delivered == 0 { Console.out(ClassificationOutput.csvHeader) }
                                        tally.delivered += 1
                                        switch outcome {
                                        case .classified(let path, let result):
                                            Console.out(ClassificationOutput.record(result, path: path, format: format))
                                        case .failed(let path, let reason):
                                            tally.failures += 1
                                            Console.error("plantleaf classify: \(path.escaped): \(reason)")
                                            if let record = ClassificationOutput.failureRecord(path: path, reason: reason, format: format) {
                                                Console.out(record)
                                            }
                                        }
                                        // Output nobody can read: stop (main.swift says why).
                                        guard !Console.stdoutFailed else { return false }
                                        progress.advance(path: outcome.path.escaped)
                                        return true
                                    })
        } catch {
            Console.error("plantleaf classify: \(Remedy.line(error))")
            return ExitCode.setupFailure
        }
        progress.clear()
        guard tally.failures > 0 else { return ExitCode.success }
        // Stopped early by unwritable output, the count of the whole batch would not be true.
        if !Console.stdoutFailed { Console.error("plantleaf classify: \(tally.failures) of \(entries.count) inputs failed") }
        return ExitCode.partialFailure
    }
}

/// Counts outcomes across batch workers (deliveries are serialised, the counts are read after).
private final class Tally: @unchecked Sendable {
    var delivered = 0
    var failures = 0
}

/// "[12/76] path" on a terminal's stderr, redrawn in place; silent otherwise.
private final class Progress: @unchecked Sendable {
    private let total: Int
    private let enabled: Bool
    private var done = 0

    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    func advance(path: String) {
        done += 1
        if enabled && done < total { Console.progress("[\(done)/\(total)] \(path)") }
    }

    func clear() {
        if enabled { Console.progress(nil) }
    }
}
