import PlantLeafCore

/// `plantleaf classify`'s arguments, parsed and range-checked without doing anything, so the
/// command-line fuzz target drives exactly what `plantleaf` runs. Defaults that depend on the
/// installation (model, labels) are left nil for the command to fill in.
public struct ClassifyOptions: Equatable, Sendable {
    /// classify's output forms (`--format`).
    public typealias Format = ClassificationOutput.Format

    public var help = false
    public var format = ClassifyOptions.Declared.format.defaultValue
    /// The model options camera and serve share.
    public var model = ModelOptions()
    /// nil: one job per core (BatchClassifier.defaultJobs).
    public var jobs: Int?
    public var normalization: Normalization?
    public var crop = SharedOptions.crop.defaultValue
    /// --checks and --min-score.
    public var verdictPolicy = VerdictPolicy(checks: SharedOptions.checks.defaultValue)
    /// --lang; nil: the environment's (`OutputLanguage`).
    public var language: Catalogue?
    /// Where each input path is in the arguments, to take its bytes from there.
    public var inputIndices: [Int] = []

    /// The options only this subcommand takes, each declared once.
    enum Declared {
        /// --format FORMAT.
        static let format = Declare.choice("--format", placeholder: "FORMAT", default: Format.text,
                                           help: .lines(["text, json (one object a line) or csv (default: text)"]))

        /// --mean's range, and --std's (above its lower bound: a zero deviation divides by zero).
        static let means = -1000.0...1000.0, deviations = 0.0...1000.0
        static let mean = Declare.number("--mean", placeholder: "M", range: means) { _ in .sharesEntryWithNext(separator: " ") }
        static let std = Declare.number("--std", placeholder: "S", range: deviations, aboveLowerBound: true) { range in
            .lines(["feed the model (pixel - M) / S instead of what its input tensor implies;",
                    "M from \(OptionRange.phrase(means)), S \(range)"])
        }
    }

    /// Every option classify takes, in the order its help lists them.
    public static let optionTable: [OptionSpec] = ModelOptions.options + [
        SharedOptions.jobs.spec,
        Declared.format.spec,
        SharedOptions.language.spec,
        SharedOptions.crop.described(.lines(["center (largest centred square, default, as camera) or none (whole image)"])).spec,
        SharedOptions.checks.spec,
        SharedOptions.minimumScore.spec,
        Declared.mean.spec,
        Declared.std.spec,
        SharedOptions.help.spec,
    ]

    /// classify's arguments, range-checked.
    /// - Throws: `UsageError` for an unknown option, a value out of range, or no input path.
    public static func parse(_ arguments: [String]) throws(UsageError) -> ClassifyOptions {
        let parsed = try Arguments(arguments, options: optionTable)
        var options = ClassifyOptions()
        if parsed.has(SharedOptions.help) {
            options.help = true
            return options
        }
        options.format = try parsed.value(Declared.format)
        options.language = try parsed.value(SharedOptions.language)
        options.model = try ModelOptions.read(parsed)
        options.jobs = try parsed.value(SharedOptions.jobs)
        let mean = try parsed.value(Declared.mean), std = try parsed.value(Declared.std)
        if mean != nil || std != nil { options.normalization = Normalization(mean: mean ?? 0, std: std ?? 255) }
        options.crop = try parsed.value(SharedOptions.crop)
        options.verdictPolicy = try SharedOptions.verdictPolicy(parsed, checks: SharedOptions.checks)
        guard !parsed.positionals.isEmpty else { throw UsageError("give at least one image file or folder") }
        guard parsed.positionals.count(where: { $0 == FileReader.standardInput }) <= 1 else {
            throw UsageError("- (standard input) can be given once")
        }
        if options.model.files.labelsPath == FileReader.standardInput, parsed.positionals.contains(FileReader.standardInput) {
            throw UsageError("--labels - and the image - would both read standard input: give one of them a file")
        }
        options.inputIndices = parsed.positionalIndices
        return options
    }
}
