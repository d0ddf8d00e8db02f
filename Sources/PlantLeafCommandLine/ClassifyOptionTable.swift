import PlantLeafCore

extension ClassifyOptions {
    /// --mean's range, and --std's (above its lower bound: a zero deviation divides by zero).
    static let means = -1000.0...1000.0, deviations = 0.0...1000.0

    /// Where the help's defaults come from: what parse leaves when an option is not given.
    private static let defaults = ClassifyOptions()

    /// Every option classify takes, in the order its help lists them.
    public static let optionTable: [OptionSpec] = [
        OptionSpec.model,
        OptionSpec("--labels", .valued(placeholder: "FILE"),
                   .lines(["class names, one a line, in output order (default: the default model's own)"])),
        OptionSpec("--top-k", .valued(placeholder: "N"),
                   .lines(["classes to show per image, \(OptionRange.phrase(OptionRange.topK)) (default: \(defaults.topK))"])),
        OptionSpec("--threads", .valued(placeholder: "N"),
                   .lines(["CPU threads per inference, \(OptionRange.phrase(OptionRange.threads)) (default: \(defaults.threads))"])),
        OptionSpec("--jobs", .valued(placeholder: "N"),
                   .lines(["images classified at once, each on its own model instance, \(OptionRange.phrase(OptionRange.jobs))",
                           "(default: one per core, divided by --threads)"])),
        OptionSpec("--format", .valued(placeholder: "FORMAT"),
                   .lines(["text, json (one object a line) or csv (default: \(defaults.format.rawValue))"])),
        OptionSpec("--crop", .valued(placeholder: "MODE"),
                   .lines(["center (largest centred square, default, as camera) or none (whole image)"])),
        OptionSpec("--checks", .valued(placeholder: "LIST"),
                   .lines(["verdict checks to run: picture, vegetation, score, mirror (a second inference",
                           "of the picture mirrored), comma-separated, or all or none",
                           "(default: picture,vegetation,score)"])),
        OptionSpec.minimumScore,
        OptionSpec("--mean", .valued(placeholder: "M"), .sharesEntryWithNext(separator: " ")),
        OptionSpec("--std", .valued(placeholder: "S"),
                   .lines(["feed the model (pixel - M) / S instead of what its input tensor implies;",
                           "M from \(OptionRange.phrase(means)), S \(OptionRange.phraseAboveLowerBound(deviations))"])),
        OptionSpec("--no-cache", .flag,
                   .lines(["compile the model without XNNPACK's weight cache (kept in",
                           "$XDG_CACHE_HOME/plantleaf, else ~/.cache/plantleaf, so later runs start sooner)"])),
        OptionSpec.helpFlag,
    ]
}
