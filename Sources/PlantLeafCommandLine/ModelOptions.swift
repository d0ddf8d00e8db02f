import PlantLeafCore

/// The options classify, camera and serve share about the model they run: which model and labels,
/// how many classes a result shows, the threads, the leaf reference, the lessons and the weight
/// cache. Each field is bound to its option here and nowhere else; the three subcommands list
/// these entries together, in this order (`OptionGroup.options`), and read them with
/// `OptionGroup.read(_:)`.
public struct ModelOptions: OptionGroup, Equatable {
    /// --model and --labels, which bench and teach take too.
    public var files = ModelFiles()
    /// --top-k's range: far more than any model's class count; the output is cut to the classes there are.
    public static let classesPerResult = 1...1000
    /// --top-k N: classes per result.
    @Bound(Declare.integer("--top-k", range: classesPerResult, default: Classifier.Options.defaultClassesPerResult) { range, fallback in .lines(["classes per result, \(range) (default: \(fallback))"]) })
    public var topK: Int
    /// --threads N: CPU threads per inference.
    @Bound(SharedOptions.threads) public var threads: Int
    /// --reference FILE; nil: the user's or the default one.
    @Bound(Declare.text("--reference", placeholder: "FILE",
                        help: .lines(["leaf reference for the generalist check (default: yours from plantleaf calibrate,",
                                      "else the one made from the sample leaves at set-up)"])))
    public var referencePath: String?
    /// --lessons FILE; nil: the default lessons file, when there is one.
    @Bound(LessonsOptions.lessons) public var lessonsPath: String?
    /// --no-cache: compile without the XNNPACK weight cache.
    @Bound(SharedOptions.noCache) public var noCache: Bool

    /// The defaults: what a subcommand runs with when none of these options is given.
    public init() {}

    /// The classifier these options name, with the subcommand's own input and verdict settings;
    /// the lessons are folded in by `LessonsOptions.applying(lessonsPath, to:)`.
    func classifierOptions(normalization: Normalization? = nil, crop: CropMode = .center, verdictPolicy: VerdictPolicy) -> Classifier.Options {
        var options = ProjectPaths.classifierOptions(modelPath: files.modelPath, labelsPath: files.labelsPath, threads: threads, normalization: normalization,
                                                     crop: crop, verdictPolicy: verdictPolicy, weightCache: !noCache, referencePath: referencePath)
        options.classesPerResult = topK
        return options
    }
}

/// The model and labels a subcommand runs: classify's, camera's and serve's (in `ModelOptions`),
/// bench's and teach's.
public struct ModelFiles: OptionGroup, Equatable {
    /// --model FILE; nil: the installed default.
    @Bound(Declare.text("--model", placeholder: "FILE", help: .lines([".tflite model (default: PlantVillage int8, installed with plantleaf)"])))
    public var modelPath: String?
    /// --labels FILE; nil: the model's own.
    @Bound(Declare.text("--labels", placeholder: "FILE", help: .lines(["class names, one a line, in output order (default: the default model's own)"])))
    public var labelsPath: String?

    /// The installed model with its own labels.
    public init() {}
}
