import PlantLeafCamera
import PlantLeafCore

/// `plantleaf camera`'s arguments, parsed and range-checked without doing anything, so the
/// command-line fuzz target drives exactly what `plantleaf` runs. Its fields are declared in the
/// order its help lists them: the camera monitor's groups (`CameraMonitorOptions`) each where it
/// reads best among camera's own options.
public struct CameraCommandOptions: OptionGroup {
    /// What camera writes on stdout for each reading.
    public enum Format: String, Sendable, CaseIterable {
        /// The status block, redrawn in place on a terminal, one after another elsewhere.
        case text
        /// One JSON object per classified frame, then a summary object.
        case json
    }

    /// What --format names: the output, or (before 0.1.0) the pixel format, nil for auto.
    enum FormatSpelling: Sendable, Equatable {
        case output(Format)
        case pixelFormat(FramePixelFormat?)
    }

    public var help = false
    public var capture = CaptureOptions()
    /// The model options classify and serve share, the class count among them.
    public var model = ModelOptions()
    @Bound(Declared.checks) var checks: VerdictChecks
    @Bound(SharedOptions.minimumScore) var minimumScore: Double?
    @Bound(Declare.integer("--frames", range: Declared.frameLimits) { range in .lines(["stop after N classified frames, \(range)"]) })
    var frameLimit: Int?
    @Bound(Declare.number("--duration", placeholder: "S", range: Declared.durations, aboveLowerBound: true) { range in
        .lines(["stop after S seconds, \(range) (a year)"])
    }) var duration: Double?
    public var wait = FrameWaitOptions()
    /// --format; its old pixel-format spelling is --pixel-format once parsed.
    @Bound(Declared.format) var formatSpelling: FormatSpelling?
    /// --lang; nil: the environment's (`OutputLanguage`).
    @Bound(SharedOptions.language.described(.lines([
        "language of the status block, of the lines on stderr, of the JSON \"display\"",
        "and \"advice\", and of the names Home Assistant shows: " + Catalogue.languages.joined(separator: ", ")
            + " (default: from LC_ALL, LC_MESSAGES or LANG, else en)"])))
    public var language: Catalogue?
    /// --preview: the model's input drawn above the scores in the terminal status block (ignored
    /// with JSON output).
    @Bound(Flag("--preview", help: .lines([
        "on a terminal, draw the model's input (48x24 cells) above the scores, in 24-bit colour",
        "(COLORTERM=truecolor or 24bit), 256 colours (TERM=*256color*) or else grey shades",
        "(also with NO_COLOR set); none with TERM dumb or unset. Accepted and ignored with",
        "JSON output (--format json, or stdout not a terminal)",
    ]))) public var preview: Bool
    public var feed = FeedOptions()
    /// --journal FILE, --no-journal, events and retention.
    public var journal = JournalOptions()
    public var mqtt = MQTTOptions()
    @Bound(Flag("--list", help: .lines(["list every /dev/video* with its formats, sizes and rates"]))) public var list: Bool
    /// --bench-frames IMAGE, and its --iterations.
    @Bound(Declared.benchFrames) public var benchFramesImage: String?
    @Bound(Declared.iterations) public var iterations: Int
    /// --json, before 0.1.0 --format json: that once parsed.
    @Bound(Flag("--json", help: .deprecated(replacement: "--format json"))) var json: Bool
    /// One line each for old spellings used (`DeprecatedSpelling`), for the command to print.
    public var notices: [String] = []

    /// No options: the default device, text on a terminal, else JSON.
    public init() {}

    /// The camera monitor's options, as serve reads them too; the pixel format --format names in
    /// its old spelling is --pixel-format's when that is not given.
    public var monitor: CameraMonitorOptions {
        get {
            var monitor = CameraMonitorOptions(capture: capture, wait: wait, feed: feed, mqtt: mqtt)
            if case .pixelFormat(let old)? = formatSpelling { monitor.capture.pixelFormat = capture.pixelFormat ?? old }
            return monitor
        }
        set { (capture, wait, feed, mqtt) = (newValue.capture, newValue.wait, newValue.feed, newValue.mqtt) }
    }

    /// --format or --json; nil: text on a terminal, JSON otherwise.
    public var format: Format? {
        if json { return .json }
        guard case .output(let format)? = formatSpelling else { return nil }
        return format
    }

    /// What the session reads, how, and when it stops.
    public var session: CameraOptions {
        var session = monitor.session
        session.frameLimit = frameLimit
        session.duration = duration
        return session
    }

    /// --checks and --min-score.
    public var verdictPolicy: VerdictPolicy { SharedOptions.verdictPolicy(checks: checks, minimumScore: minimumScore) }

    /// - Throws: `UsageError` for --input with an option only a device takes.
    public func validate() throws(UsageError) { try monitor.checkStream() }

    /// The ranges of camera's own options, and the declarations its fields bind that something
    /// else names too (serve's camera runs with --checks's camera default) or too long to read at the field.
    enum Declared {
        /// --frames's range.
        static let frameLimits = 1...1_000_000_000
        /// --duration's range, above its lower bound: up to a year.
        static let durations = 0.0...31_536_000.0
        /// --bench-frames's --iterations range.
        static let iterationCounts = 1...1_000_000

        /// --format FORMAT, which before 0.1.0 was the pixel format: those names still work, with a notice.
        static let format = Option<FormatSpelling?>(
            "--format", placeholder: "FORMAT", default: nil,
            help: .lines(["text (the status block) or json (one object per frame, then a summary object)",
                          "(default: text on a terminal, else json)"])
        ) { text throws(UsageError) in
            if let format = Format(rawValue: text) { return .output(format) }
            guard text == "auto" || FramePixelFormat(rawValue: text) != nil else {
                throw OptionValue.notAChoice("--format", text, Format.allCases.map(\.rawValue))
            }
            return .pixelFormat(FramePixelFormat(rawValue: text))
        }

        static let checks = SharedOptions.checks.defaulting(
            to: .cameraDefault,
            help: .lines(["verdict checks to run: picture, vegetation, generalist, score, mirror,",
                          "comma-separated, or all or none (default: \(VerdictChecks.cameraDefault))"]))
        static let iterations = Declare.integer("--iterations", range: iterationCounts, default: 200) { _, _ in .mentionedIn("--bench-frames") }
        static let benchFrames = Declare.text(
            "--bench-frames", placeholder: "IMAGE",
            help: .lines(["time frame -> model input for YUYV and MJPEG frames made from IMAGE",
                          "against invoke (make bench runs this); --iterations N, \(OptionRange.phrase(iterationCounts)) "
                          + "(default: \(iterations.defaultValue))"]))
    }

    /// Every option camera takes, in the order its help lists them.
    public static let optionTable: [OptionSpec] = CameraCommandOptions.options + [SharedOptions.help.spec]

    /// camera's arguments, range-checked; the old spellings read as the new ones, with a notice each.
    /// - Throws: `UsageError` for an unknown option, a value out of range, or options that do not go together.
    public static func parse(_ arguments: [String]) throws(UsageError) -> CameraCommandOptions {
        let parsed = try Arguments(arguments, options: optionTable)
        guard !parsed.has(SharedOptions.help) else {
            var options = CameraCommandOptions()
            options.help = true
            return options
        }
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
        var options = try read(parsed)
        if case .pixelFormat(let old)? = options.formatSpelling {
            let name = old?.rawValue ?? "auto"
            options.notices.append(DeprecatedSpelling.notice("--format \(name)", replacement: "--pixel-format \(name)"))
            (options.capture, options.formatSpelling) = (options.monitor.capture, nil)
        }
        if options.json {
            options.notices.append(DeprecatedSpelling.notice("--json", replacement: "--format json"))
            (options.formatSpelling, options.json) = (.output(.json), false)
        }
        return options
    }
}
