/// The top classes for one image or frame, best first, whether they may be read as an answer,
/// and what each stage took.
public struct Classification: Sendable {
    /// The model's scores, whatever the verdict: a front end shows them beside it.
    public var top: [ScoredClass]
    public var verdict: Verdict
    /// Why the verdict is not a diagnosis: the reading that decided (nil for a diagnosis).
    public var reason: VerdictReason?
    /// The generalist check's reading: how like leaf photos the picture looks, or why it was
    /// not measured.
    public var secondOpinion: SecondOpinionReading
    /// What the verdict's picture checks read from the model-size pixels (for a camera, the next
    /// frame's readings are compared with these).
    public var picture: PictureStatistics
    public var timings: StageTimings
    /// The model's pooled feature vector from the same invoke as `top`, when the classifier reads
    /// it (`Classifier.Options.readsFeatures`).
    public var features: [Float]?
    /// Where the answer came from: the model, or the grower's lessons (`taught`).
    public var source: AnswerSource = .model
    /// What the grower's lessons make of the picture, when some are loaded; the answer when
    /// `source` is `.lessons`.
    public var taught: TaughtClasses.Match?

    /// A result as `Classifier.run(timings:history:verdictPolicy:)` makes it (also for tests and other front
    /// ends' renderers).
    public init(top: [ScoredClass], verdict: Verdict, reason: VerdictReason? = nil, secondOpinion: SecondOpinionReading = .notRun,
                picture: PictureStatistics = PictureStatistics(), timings: StageTimings) {
        self.top = top
        self.verdict = verdict
        self.reason = reason
        self.secondOpinion = secondOpinion
        self.picture = picture
        self.timings = timings
    }
}
