import PlantLeafKit

/// `plantleaf classify`: the top classes for every image file given or found in given folders.
enum ClassifyCommand {
    static let help = """
        USAGE: plantleaf classify [options] PATH...

        Classifies leaf photos (PNG or JPEG, told apart by their bytes). Folders are searched
        recursively for .jpg, .jpeg and .png files.

        OPTIONS:
          --model FILE       .tflite model (default: PlantVillage int8, installed with plantleaf)
          --labels FILE      class names, one a line, in output order (default: the default model's own)
          --top-k N          classes to show per image (default: 3)
          --threads N        CPU threads per inference (default: 1)
          --jobs N           images classified at once, each on its own model instance
                             (default: one per core, divided by --threads)
          --format FORMAT    text, json (one object a line) or csv (default: text)
          --mean M --std S   feed the model (pixel - M) / S instead of what its input tensor implies
          -h, --help         show this help

        EXIT CODES: 0 every file classified, 1 some files failed, 2 usage, model, labels or runtime error.
        """

    enum Format: String {
        case text, json, csv
    }

    static func run(_ arguments: [String]) -> Int32 {
        let parsed: Arguments
        let format: Format
        let topK: Int, threads: Int
        var jobs: Int?
        var normalization: Normalization?  // set once while parsing, read by the batch workers
        do {
            parsed = try Arguments(arguments, valued: ["--model", "--labels", "--top-k", "--threads", "--jobs", "--format", "--mean", "--std"],
                                   flags: ["--help", "-h"])
            if parsed.has("--help") || parsed.has("-h") {
                Console.out(help)
                return ExitCode.success
            }
            format = Format(rawValue: try parsed.choice("--format", from: ["text", "json", "csv"], default: "text"))!
            topK = try parsed.integer("--top-k", default: 3, minimum: 1)
            threads = try parsed.integer("--threads", default: 1, minimum: 1)
            if parsed.string("--jobs") != nil { jobs = try parsed.integer("--jobs", default: 1, minimum: 1) }
            let mean = try parsed.double("--mean"), std = try parsed.double("--std")
            if mean != nil || std != nil {
                let spread = std ?? 255
                guard spread != 0 else { throw UsageError("--std must not be 0") }
                normalization = Normalization(mean: mean ?? 0, std: spread)
            }
            guard !parsed.positionals.isEmpty else { throw UsageError("give at least one image file or folder") }
        } catch {
            Console.error("plantleaf classify: \(error) (see plantleaf classify --help)")
            return ExitCode.setupFailure
        }

        let fixedNormalization = normalization
        let defaults = ProjectPaths.defaultModelAndLabels()
        let modelPath = parsed.string("--model") ?? defaults.modelPath
        let labelsPath = parsed.string("--labels") ?? defaults.labelsPath
        let entries = ImageFiles.expand(parsed.positionals)
        let fileCount = entries.count { if case .file = $0 { return true } else { return false } }
        let progress = Progress(total: entries.count, enabled: Console.stderrIsTerminal && entries.count >= 20)
        let failures = Counter()
        if format == .csv { Console.out("path,rank,index,label,score,decode_ms,preprocess_ms,invoke_ms,postprocess_ms") }
        do {
            try BatchClassifier.run(entries, jobs: jobs ?? BatchClassifier.defaultJobs(inputs: fileCount, threads: threads), topK: topK,
                                    makeClassifier: { () throws(ClassifierSetupError) -> Classifier in
                                        try Classifier(modelPath: modelPath, labelsPath: labelsPath, threads: threads,
                                                       normalization: fixedNormalization)
                                    },
                                    deliver: { outcome in
                                        progress.clear()
                                        switch outcome {
                                        case .classified(let path, let result):
                                            print(result, path: path, format: format)
                                            progress.advance(path)
                                        case .failed(let path, let reason):
                                            failures.increment()
                                            report(path: path, reason: reason, format: format)
                                            progress.advance(path)
                                        }
                                    })
        } catch {
            Console.error("plantleaf classify: \(error)")
            return ExitCode.setupFailure
        }
        progress.clear()
        if failures.value > 0 {
            Console.error("plantleaf classify: \(failures.value) of \(entries.count) inputs failed")
            return ExitCode.partialFailure
        }
        return ExitCode.success
    }

    private static func report(path: String, reason: String, format: Format) {
        Console.error("plantleaf classify: \(path): \(reason)")
        if format == .json {
            var object = JSONObject()
            object.add("path", path)
            object.add("error", reason)
            Console.out(object.text)
        }
    }

    private static func print(_ result: Classification, path: String, format: Format) {
        switch format {
        case .text:
            var lines = [path]
            for entry in result.top {
                let percent = formatFixed(entry.score * 100, decimals: 1)
                let padded = String(repeating: " ", count: max(0, 5 - percent.count)) + percent
                lines.append("  \(padded)%  \(Labels.displayName(entry.label))")
            }
            Console.out(lines.joined(separator: "\n"))
        case .json:
            var object = JSONObject()
            object.add("path", path)
            object.add("top", objects: result.top.map(\.json))
            var timing = JSONObject()
            timing.add("decode", result.timings.decode, decimals: 3)
            timing.add("preprocess", result.timings.preprocess, decimals: 3)
            timing.add("invoke", result.timings.invoke, decimals: 3)
            timing.add("postprocess", result.timings.postprocess, decimals: 3)
            object.add("timing_ms", timing)
            Console.out(object.text)
        case .csv:
            let t = result.timings
            let times = [t.decode, t.preprocess, t.invoke, t.postprocess].map { JSONObject.number($0, decimals: 3) }.joined(separator: ",")
            for (rank, entry) in result.top.enumerated() {
                Console.out([csvField(path), String(rank + 1), String(entry.index), csvField(entry.label),
                             JSONObject.number(entry.score, decimals: 6), times].joined(separator: ","))
            }
        }
    }

    /// A number with exactly `decimals` decimals ("0.0", "99.6").
    static func formatFixed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int64((value * scale).rounded())
        let whole = String(scaled / Int64(scale)), fraction = String(abs(scaled) % Int64(scale))
        return whole + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }

    /// RFC 4180: quote fields holding commas, quotes or line breaks; double inner quotes.
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }
}

/// Counts failures across batch workers (deliveries are serialised, the count is read after).
private final class Counter: @unchecked Sendable {
    private(set) var value = 0
    func increment() { value += 1 }
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

    func advance(_ path: String) {
        done += 1
        if enabled && done < total { Console.progress("[\(done)/\(total)] \(path)") }
    }

    func clear() {
        if enabled { Console.progress(nil) }
    }
}
