import PlantLeafCore

/// The options classify, camera and serve share about the model they run: which model and labels,
/// how many classes a result shows, the threads, the weight cache, the leaf reference and the
/// lessons. One value each subcommand embeds and reads with one call, so a shared option has one
/// field and one parse line; each subcommand's table still places and words its entries, since
/// the help texts list them in each subcommand's own order.
public struct ModelOptions: Equatable, Sendable {
    /// --model FILE; nil: the installed default.
    public var modelPath: String?
    /// --labels FILE; nil: the model's own.
    public var labelsPath: String?
    /// --top-k N: classes per result.
    public var topK = SharedOptions.topK.defaultValue
    /// --threads N: CPU threads per inference.
    public var threads = SharedOptions.threads.defaultValue
    /// --no-cache: compile without the XNNPACK weight cache.
    public var noCache = false
    /// --reference FILE; nil: the user's or the default one.
    public var referencePath: String?
    /// --lessons FILE; nil: the default lessons file, when there is one.
    public var lessonsPath: String?

    /// The defaults: what a subcommand runs with when none of these options is given.
    public init() {}

    /// These options of `parsed`, by the declarations every subcommand's table lists them with.
    /// - Throws: `UsageError` for --top-k or --threads out of range.
    init(_ parsed: Arguments) throws(UsageError) {
        topK = try parsed.value(SharedOptions.topK)
        threads = try parsed.value(SharedOptions.threads)
        modelPath = try parsed.value(SharedOptions.model)
        labelsPath = try parsed.value(SharedOptions.labels)
        noCache = parsed.has(SharedOptions.noCache)
        referencePath = try parsed.value(SharedOptions.reference)
        lessonsPath = try parsed.value(LessonsOptions.lessons)
    }

    /// The classifier these options name, with the subcommand's own input and verdict settings;
    /// the lessons are folded in by `LessonsOptions.applying(lessonsPath, to:)`.
    func classifierOptions(normalization: Normalization? = nil, crop: CropMode = .center, verdictPolicy: VerdictPolicy) -> Classifier.Options {
        ProjectPaths.classifierOptions(modelPath: modelPath, labelsPath: labelsPath, threads: threads, normalization: normalization,
                                       crop: crop, verdictPolicy: verdictPolicy, weightCache: !noCache, referencePath: referencePath)
    }
}
