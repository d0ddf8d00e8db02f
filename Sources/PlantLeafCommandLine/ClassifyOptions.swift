import PlantLeafCore

/// `plantleaf classify`'s arguments, parsed and range-checked without doing anything, so the
/// command-line fuzz target drives exactly what `plantleaf` runs. Defaults that depend on the
/// installation (model, labels) are left nil for the command to fill in.
public struct ClassifyOptions: OptionGroup, Equatable {
    /// classify's output forms (`--format`).
    public typealias Format = ClassificationOutput.Format

    public var help = false
    /// The model options camera and serve share.
    public var model = ModelOptions()
    /// nil: one job per core (BatchClassifier.defaultJobs).
    @Bound(SharedOptions.jobs) public var jobs: Int?
    @Bound(Declare.choice("--format", placeholder: "FORMAT", default: Format.text,
                          help: .lines(["text, json (one object a line) or csv (default: text)"])))
    public var format: Format
    /// --lang; nil: the environment's (`OutputLanguage`).
    @Bound(SharedOptions.language) public var language: Catalogue?
    @Bound(SharedOptions.crop.described(.lines(["center (largest centred square, default, as camera) or none (whole image)"])))
    public var crop: CropMode
    @Bound(SharedOptions.checks) var checks: VerdictChecks
    @Bound(SharedOptions.minimumScore) var minimumScore: Double?
    @Bound(Declare.number("--mean", placeholder: "M", range: means) { _ in .sharesEntryWithNext(separator: " ") })
    var mean: Double?
    @Bound(Declare.number("--std", placeholder: "S", range: deviations, aboveLowerBound: true) { range in
        .lines(["feed the model (pixel - M) / S instead of what its input tensor implies;",
                "M from \(OptionRange.phrase(means)), S \(range)"])
    }) var std: Double?
    /// Where each input path is in the arguments, to take its bytes from there.
    public var inputIndices: [Int] = []

    /// --mean's range, and --std's (above its lower bound: a zero deviation divides by zero).
    static let means = -1000.0...1000.0, deviations = 0.0...1000.0

    /// No options: the defaults, no input.
    public init() {}

    /// --checks and --min-score.
    public var verdictPolicy: VerdictPolicy { SharedOptions.verdictPolicy(checks: checks, minimumScore: minimumScore) }

    /// --mean and --std; nil: what the model's input tensor implies.
    public var normalization: Normalization? {
        guard mean != nil || std != nil else { return nil }
        return Normalization(mean: mean ?? 0, std: std ?? 255)
    }

    /// Every option classify takes, in the order its help lists them.
    public static let optionTable: [OptionSpec] = ClassifyOptions.options + [SharedOptions.help.spec]

    /// classify's arguments, range-checked.
    /// - Throws: `UsageError` for an unknown option, a value out of range, or no input path.
    public static func parse(_ arguments: [String]) throws(UsageError) -> ClassifyOptions {
        let parsed = try Arguments(arguments, options: optionTable)
        guard !parsed.has(SharedOptions.help) else {
            var options = ClassifyOptions()
            options.help = true
            return options
        }
        var options = try read(parsed)
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
