import PlantLeafCore

/// The options more than one subcommand takes, each declared once: the same name, value check,
/// range and default wherever it appears. A subcommand whose help words one differently uses
/// `described(_:)`, which keeps the declaration's parsing.
enum SharedOptions {
    /// -h, --help: every subcommand's.
    static let help = Flag(names: ["-h", "--help"], help: .lines(["show this help"]))

    /// --threads N: CPU threads per inference.
    static let threads = Declare.integer("--threads", range: OptionRange.threads, default: 1) { range, fallback in
        .lines(["CPU threads per inference, \(range) (default: \(fallback))"])
    }

    /// --jobs N: model instances at once; nil, one per core.
    static let jobs = Declare.integer("--jobs", range: OptionRange.jobs) { range in
        .lines(["images classified at once, each on its own model instance, \(range)", "(default: one per core, divided by --threads)"])
    }

    /// --no-cache: compile without the XNNPACK weight cache.
    static let noCache = Flag("--no-cache", help: .lines(["compile the model without XNNPACK's weight cache (kept in",
                                                           "$XDG_CACHE_HOME/plantleaf, else ~/.cache/plantleaf, so later runs start sooner)"]))

    /// --crop MODE.
    static let crop = Declare.choice("--crop", placeholder: "MODE", default: CropMode.center,
                                     help: .lines(["center (largest centred square, default) or none (whole frame)"]))

    /// --checks LIST, with classify's default; camera's runs every check.
    static let checks = Option<VerdictChecks>(
        "--checks", placeholder: "LIST", default: .classifyDefault,
        help: .lines(["verdict checks to run: picture, vegetation, score, mirror (a second inference",
                      "of the picture mirrored), generalist (a second model's view against leaf photos),",
                      "comma-separated, or all or none",
                      "(default: \(VerdictChecks.classifyDefault))"])
    ) { text throws(UsageError) in
        do throws(VerdictChecksError) {
            return try VerdictChecks(parsing: text)
        } catch {
            throw UsageError("--checks: \(error.message)")
        }
    }

    /// --lang CODE: the language of the text output; nil, the environment's (`OutputLanguage`).
    static let language = Option<Catalogue?>(
        "--lang", placeholder: "CODE", default: nil,
        help: .lines(["language of the text output and of the JSON and CSV \"display\" names: " + Catalogue.languages.joined(separator: ", "),
                      "(default: from LC_ALL, LC_MESSAGES or LANG, else en)"])
    ) { text throws(UsageError) in
        guard let catalogue = Catalogue(language: text) else {
            throw UsageError("--lang: no language '\(text)' (there are " + Catalogue.languages.joined(separator: ", ") + ")")
        }
        return catalogue
    }

    /// --min-score X: nil leaves VerdictPolicy's threshold, which does not depend on the checks run.
    static let minimumScore = Declare.number("--min-score", placeholder: "X", range: OptionRange.minimumScore) { range in
        let fallback: String = OptionRange.number(VerdictPolicy(checks: .classifyDefault).minimumScore)
        return .lines(["top score below which the score and mirror checks say uncertain, \(range) (default: \(fallback))"])
    }

    /// The verdict policy of `checks` (a subcommand's --checks, with its default) and --min-score.
    static func verdictPolicy(_ parsed: Arguments, checks: Option<VerdictChecks>) throws(UsageError) -> VerdictPolicy {
        verdictPolicy(checks: try parsed.value(checks), minimumScore: try parsed.value(minimumScore))
    }

    /// The verdict policy of these checks, with `minimumScore` when given (nil keeps the policy's).
    static func verdictPolicy(checks: VerdictChecks, minimumScore: Double?) -> VerdictPolicy {
        var policy = VerdictPolicy(checks: checks)
        policy.minimumScore = minimumScore ?? policy.minimumScore
        return policy
    }
}
