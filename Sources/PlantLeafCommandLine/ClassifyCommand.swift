import PlantLeafCore
import PlantLeafCamera
import PlantLeafSupport
import Synchronization

/// `plantleaf classify`: the top classes for every image file given or found in given folders.
enum ClassifyCommand: Subcommand {
    static let configuration = CommandConfiguration(
        name: "classify", operands: "PATH...", abstract: "top classes for leaf photos (files or folders)",
        options: ClassifyOptions.optionTable, helpLabelWidth: 19, readsArgumentBytes: true)

    /// The help text above the options.
    static let helpIntroduction = """
        USAGE: plantleaf classify [options] PATH...

        Classifies leaf photos (PNG or JPEG, told apart by their bytes). Folders are searched
        recursively for .jpg, .jpeg and .png files. - reads one image from standard input
        (cat leaf.jpg | plantleaf classify -); a file named - is ./-. Only regular files are
        read: FIFOs, devices and sockets are refused, each with an error line.

        Every result carries a verdict (docs/verdicts.md): diagnosis (the top class is the answer),
        uncertain (maybe a leaf, but not one the model can be trusted on: a field scene, a picture
        too small, or the model not sure), no-leaf (not a leaf photo) or no-picture (dark, blown
        out or flat), with the reason and what to do. A second, generalist model compares the
        picture with leaf photos (its leaf-likeness). The scores are shown whatever the verdict;
        only a diagnosis is an answer.

        OPTIONS:
        """

    /// The help text below the options.
    static let helpConclusion = """
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
            Console.out(help + "\n\n" + KnownClasses.helpSection())
            return ExitCode.success
        }
        if let refusal = NonUTF8Argument.first(in: bytes, exempt: Set(options.inputIndices)) {
            Console.error("plantleaf classify: \(refusal) (see plantleaf classify --help)")
            return ExitCode.setupFailure
        }
        let (format, threads) = (options.format, options.model.threads)
        let catalogue = OutputLanguage.catalogue(option: options.language)
        let normalization = options.normalization
        let modelOptions = options.model.classifierOptions(normalization: normalization, crop: options.crop, verdictPolicy: options.verdictPolicy)
        let classifierOptions: Classifier.Options
        do {
            classifierOptions = try LessonsOptions.applying(options.model.lessonsPath, to: modelOptions)
        } catch {
            Console.error("plantleaf classify: \(error)")
            return ExitCode.setupFailure
        }
        let entries = ImageFiles.expand(options.inputIndices.map { PathName(bytes: bytes[$0]) })
        let fileCount = entries.count { if case .file = $0 { return true } else { return false } }
        let progress = Progress(total: entries.count, enabled: Console.stderrTakesProgress && entries.count >= 20)
        let tally = Tally()
        var warnedOfSkippedCheck = false
        /// An input that failed: its line in the reader's language, its JSON record's "error" in English.
        @Sendable func report(_ path: PathName, reason: String, said: String) {
            tally.countFailure()
            Console.error("plantleaf classify: \(path.escaped): \(said)")
            if let record = ClassificationOutput.failureRecord(path: path, reason: reason, format: format) { Console.out(record) }
        }
        do {
            try BatchClassifier.run(entries, jobs: options.jobs ?? BatchClassifier.defaultJobs(inputs: fileCount, threads: threads),
                                    makeClassifier: { () throws(ClassifierSetupError) -> Classifier in
                                        let classifier = try Classifier(options: classifierOptions)
                                        // Once, from the first worker's: every worker loads the same files.
                                        if !warnedOfSkippedCheck {
                                            if let problem = classifier.secondOpinionProblem {
                                                Console.error("plantleaf classify: \(Remedy.skippedCheckLine(problem, in: catalogue))")
                                            }
                                            if let problem = classifier.lessonsProblem { Console.error("plantleaf classify: \(problem)") }
                                            warnedOfSkippedCheck = true
                                        }
                                        return classifier
                                    },
                                    shortOfWorkers: { short in
                                        Console.error("plantleaf classify: " + catalogue.text("classify.short-of-workers", [
                                            "running": String(short.running), "asked": String(short.asked), "problem": short.problem.description(in: catalogue),
                                        ]))
                                    },
                                    deliver: { outcome in
                                        progress.clear()
                                        // After set-up, so a model error is not preceded by a header.
                                        if tally.countDelivery() && format == .csv { Console.out(ClassificationOutput.csvHeader) }
                                        switch outcome {
                                        case .classified(let path, let result):
                                            Console.out(ClassificationOutput.record(result, path: path, format: format, catalogue: catalogue))
                                        case .failed(let path, let reason):
                                            report(path, reason: reason.reason, said: reason.message(in: catalogue))
                                        case .unclassified(let path, let error):
                                            report(path, reason: error.reason, said: error.reason(in: catalogue))
                                        }
                                        // Output nobody can read: stop (main.swift says why).
                                        guard !Console.stdoutFailed else { return false }
                                        progress.advance(path: outcome.path.escaped)
                                        return true
                                    })
        } catch {
            Console.error("plantleaf classify: \(Remedy.line(error, in: catalogue))")
            return ExitCode.setupFailure
        }
        progress.clear()
        guard tally.failures > 0 else { return ExitCode.success }
        // Stopped early by unwritable output, the count of the whole batch would not be true.
        if !Console.stdoutFailed {
            Console.error("plantleaf classify: " + catalogue.text("classify.failed-count", ["failed": String(tally.failures), "total": String(entries.count)]))
        }
        return ExitCode.partialFailure
    }
}

/// Counts outcomes as the batch workers deliver them; the failures are read after the batch.
/// Deliveries never overlap, so the counters need no ordering beyond their own.
private final class Tally: Sendable {
    private let delivered = Atomic<Int>(0)
    private let failed = Atomic<Int>(0)

    /// Counts one outcome delivered; true for the first.
    func countDelivery() -> Bool {
        delivered.wrappingAdd(1, ordering: .relaxed).oldValue == 0
    }

    func countFailure() {
        failed.wrappingAdd(1, ordering: .relaxed)
    }

    var failures: Int { failed.load(ordering: .relaxed) }
}

/// "[12/76] path" on a terminal's stderr, redrawn in place; silent otherwise.
private final class Progress: Sendable {
    private let total: Int
    private let enabled: Bool
    private let done = Atomic<Int>(0)

    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    func advance(path: String) {
        let done = done.wrappingAdd(1, ordering: .relaxed).newValue
        if enabled && done < total { Console.progress("[\(done)/\(total)] \(path)") }
    }

    func clear() {
        if enabled { Console.progress(nil) }
    }
}
