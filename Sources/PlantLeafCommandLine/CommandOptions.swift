import PlantLeafCore
import PlantLeafCamera
import PlantLeafBench

/// What each subcommand's arguments say, parsed and range-checked without doing anything, so
/// the command-line fuzz target drives exactly what `plantleaf` runs. Defaults that depend on
/// the installation (model, labels, sample image) are left nil for the command to fill in.

/// `plantleaf classify`.
public struct ClassifyOptions: Equatable, Sendable {
    /// classify's output forms (`--format`).
    public typealias Format = ClassificationOutput.Format

    public var help = false
    public var format = Format.text
    public var topK = 3
    public var threads = 1
    /// nil: one job per core (BatchClassifier.defaultJobs).
    public var jobs: Int?
    public var normalization: Normalization?
    public var crop = CropMode.center
    /// --checks and --min-score.
    public var verdictPolicy = VerdictPolicy(checks: .classifyDefault)
    public var modelPath: String?
    public var labelsPath: String?
    /// --no-cache: compile without the XNNPACK weight cache.
    public var noCache = false
    /// Where each input path is in the arguments, to take its bytes from there.
    public var inputIndices: [Int] = []

    /// classify's arguments, range-checked.
    /// - Throws: `UsageError` for an unknown option, a value out of range, or no input path.
    public static func parse(_ arguments: [String]) throws(UsageError) -> ClassifyOptions {
        let parsed = try Arguments(arguments, options: optionTable)
        var options = ClassifyOptions()
        if parsed.has("--help") {
            options.help = true
            return options
        }
        let format = try parsed.choice("--format", from: ["text", "json", "csv"], default: options.format.rawValue)
        options.format = Format(rawValue: format)!
        options.topK = try parsed.integer("--top-k", default: options.topK, range: OptionRange.topK)
        options.threads = try parsed.integer("--threads", default: options.threads, range: OptionRange.threads)
        if parsed.string("--jobs") != nil { options.jobs = try parsed.integer("--jobs", default: 1, range: OptionRange.jobs) }
        let mean = try parsed.double("--mean", range: means)
        let std = try parsed.double("--std", range: deviations, aboveLowerBound: true)
        if mean != nil || std != nil { options.normalization = Normalization(mean: mean ?? 0, std: std ?? 255) }
        options.crop = try parsed.cropMode(default: options.crop)
        options.verdictPolicy = try parsed.verdictPolicy(defaultChecks: .classifyDefault)
        guard !parsed.positionals.isEmpty else { throw UsageError("give at least one image file or folder") }
        guard parsed.positionals.count(where: { $0 == FileReader.standardInput }) <= 1 else {
            throw UsageError("- (standard input) can be given once")
        }
        if parsed.string("--labels") == FileReader.standardInput, parsed.positionals.contains(FileReader.standardInput) {
            throw UsageError("--labels - and the image - would both read standard input: give one of them a file")
        }
        options.modelPath = parsed.string("--model")
        options.labelsPath = parsed.string("--labels")
        options.inputIndices = parsed.positionalIndices
        options.noCache = parsed.has("--no-cache")
        return options
    }
}

/// `plantleaf camera`.
public struct CameraCommandOptions: Sendable {
    public var help = false
    public var list = false
    public var json = false
    /// --preview: the model's input drawn above the scores in the terminal status block (ignored
    /// with JSON output).
    public var preview = false
    public var session = CameraOptions()
    /// --checks and --min-score.
    public var verdictPolicy = VerdictPolicy(checks: .cameraDefault)
    public var threads = 1
    /// --bench-frames IMAGE, and its --iterations.
    public var benchFramesImage: String?
    public var iterations = 200
    public var modelPath: String?
    public var labelsPath: String?
    /// --log FILE: one JSON line appended per result.
    public var logPath: String?
    /// --mqtt URL, --mqtt-password-file FILE and --mqtt-ca FILE.
    public var mqttURL: String?
    public var mqttPasswordFile: String?
    public var mqttCAFile: String?
    /// --no-cache: compile without the XNNPACK weight cache.
    public var noCache = false

    /// camera's arguments, range-checked.
    /// - Throws: `UsageError` for an unknown option, a value out of range, or options that do not go together.
    public static func parse(_ arguments: [String]) throws(UsageError) -> CameraCommandOptions {
        let parsed = try Arguments(arguments, options: optionTable)
        var options = CameraCommandOptions()
        if parsed.has("--help") {
            options.help = true
            return options
        }
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
        var session = CameraOptions()
        session.devicePath = parsed.string("--device") ?? session.devicePath
        let format = try parsed.choice("--format", from: ["auto"] + FramePixelFormat.allCases.map(\.rawValue), default: "auto")
        session.request.format = FramePixelFormat(rawValue: format)
        if let text = parsed.string("--size") {
            guard let size = FrameSize(parsing: text) else { throw UsageError("--size must look like 640x480, got '\(text)'") }
            // YUYV packs two pixels into four bytes, so an odd width has no frame layout.
            guard frameWidths.contains(size.width), size.width % 2 == 0, frameHeights.contains(size.height) else {
                let widths: String = OptionRange.phrase(frameWidths), heights: String = OptionRange.phrase(frameHeights)
                throw UsageError("--size must be an even width from \(widths) and a height from \(heights), got '\(text)'")
            }
            session.request.size = size
        }
        session.request.framesPerSecond = try parsed.double("--fps", range: frameRates, aboveLowerBound: true)
        session.crop = try parsed.cropMode(default: session.crop)
        session.topK = try parsed.integer("--top-k", default: session.topK, range: OptionRange.topK)
        if parsed.string("--frames") != nil { session.frameLimit = try parsed.integer("--frames", default: 1, range: frameLimits) }
        session.duration = try parsed.double("--duration", range: durations, aboveLowerBound: true)
        session.frameTimeout = try parsed.double("--timeout", range: frameTimeouts) ?? session.frameTimeout
        session.saveFramesDirectory = parsed.string("--save-frames")
        session.inputPath = parsed.string("--input")
        if session.inputPath != nil {
            // A stream's frames are JPEGs of whatever size the sender chose.
            for option in deviceOnlyOptions where parsed.string(option) != nil {
                throw UsageError("\(option) is for V4L2 devices and cannot be used with --input")
            }
        }
        session.interval = try parsed.duration("--every", range: intervals)
        options.logPath = parsed.string("--log")
        options.mqttURL = parsed.string("--mqtt")
        options.mqttPasswordFile = parsed.string("--mqtt-password-file")
        options.mqttCAFile = parsed.string("--mqtt-ca")
        if options.mqttURL == nil, let option = ["--mqtt-password-file", "--mqtt-ca"].first(where: { parsed.string($0) != nil }) {
            throw UsageError("\(option) goes with --mqtt URL")
        }
        options.session = session
        options.verdictPolicy = try parsed.verdictPolicy(defaultChecks: .cameraDefault)
        options.threads = try parsed.integer("--threads", default: options.threads, range: OptionRange.threads)
        options.iterations = try parsed.integer("--iterations", default: options.iterations, range: iterationCounts)
        options.list = parsed.has("--list")
        options.json = parsed.has("--json")
        options.preview = parsed.has("--preview")
        options.benchFramesImage = parsed.string("--bench-frames")
        options.modelPath = parsed.string("--model")
        options.labelsPath = parsed.string("--labels")
        options.noCache = parsed.has("--no-cache")
        return options
    }
}

/// `plantleaf bench` (and `bench compare`, whose arguments are `comparedReports`).
public struct BenchOptions: Equatable, Sendable {
    public var help = false
    /// `bench compare A.json B.json ...`: the reports; nil for a measuring run.
    public var comparedReports: [String]?
    /// `bench compare --html FILE`: also write the comparison as a page.
    public var htmlPath: String?
    public var synthetic = false
    public var imagePath: String?
    public var modelPath: String?
    public var labelsPath: String?
    public var runs = 100
    public var warmup = 10
    public var threadCounts = [1]
    public var minimumSeconds = 0.0
    public var jsonPath: String?
    public var csvPath: String?
    public var profile = false
    /// --no-cache: compile without the XNNPACK weight cache.
    public var noCache = false
    /// --cpus LIST: the CPUs to measure on.
    public var cpus: CPUSet?

    /// bench's (or bench compare's) arguments, range-checked.
    /// - Throws: `UsageError` for an unknown option, a value out of range, or output files that clash.
    public static func parse(_ arguments: [String]) throws(UsageError) -> BenchOptions {
        var options = BenchOptions()
        if arguments.first == "compare" {
            let parsed = try Arguments(Array(arguments.dropFirst()), options: compareOptionTable)
            options.help = parsed.has("--help")
            guard options.help || parsed.positionals.count >= 2 else { throw UsageError("compare needs at least two JSON reports") }
            // Standard input reads once: a second - would find it empty.
            guard options.help || parsed.positionals.count(where: { $0 == FileReader.standardInput }) <= 1 else {
                throw UsageError("- (standard input) can be given once")
            }
            options.comparedReports = parsed.positionals
            options.htmlPath = try CompareHTMLOption.check(parsed.string("--html"), reports: parsed.positionals)
            return options
        }
        let parsed = try Arguments(arguments, options: optionTable)
        if parsed.has("--help") {
            options.help = true
            return options
        }
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
        if parsed.has("--synthetic"), parsed.string("--image") != nil { throw UsageError("give --image or --synthetic, not both") }
        if let json = parsed.string("--json"), let csv = parsed.string("--csv"), FileWriter.sameFile(json, csv) {
            throw UsageError("--json and --csv name the same file, \(json): give each its own")
        }
        // Checked now, not after minutes of measuring.
        for option in ["--json", "--csv"] {
            guard let path = parsed.string(option) else { continue }
            do {
                try FileWriter.checkWritable(path)
            } catch {
                throw UsageError("cannot write \(option) file \(path): \(error)")
            }
        }
        options.minimumSeconds = try parsed.double("--min-seconds", range: measuredSeconds) ?? options.minimumSeconds
        options.runs = try parsed.integer("--runs", default: options.runs, range: runCounts)
        options.warmup = try parsed.integer("--warmup", default: options.warmup, range: warmupCounts)
        if let text = parsed.string("--threads") { options.threadCounts = try threadCounts(text) }
        if let list = parsed.string("--cpus") {
            do { options.cpus = try CPUSet(parsing: list) } catch { throw UsageError(error.message) }
        }
        options.synthetic = parsed.has("--synthetic")
        options.profile = parsed.has("--profile")
        options.noCache = parsed.has("--no-cache")
        options.imagePath = parsed.string("--image")
        options.modelPath = parsed.string("--model")
        options.labelsPath = parsed.string("--labels")
        options.jsonPath = parsed.string("--json")
        options.csvPath = parsed.string("--csv")
        return options
    }

    /// "1,2,4" (--threads) → [1, 2, 4]; each in OptionRange.threads, none repeated.
    static func threadCounts(_ text: String) throws(UsageError) -> [Int] {
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
}
