import PlantLeafCamera
import PlantLeafCore

/// `plantleaf camera`'s arguments, parsed and range-checked without doing anything, so the
/// command-line fuzz target drives exactly what `plantleaf` runs.
public struct CameraCommandOptions: Sendable {
    /// What camera writes on stdout for each reading.
    public enum Format: String, Sendable, CaseIterable {
        /// The status block, redrawn in place on a terminal, one after another elsewhere.
        case text
        /// One JSON object per classified frame, then a summary object.
        case json
    }

    public var help = false
    public var list = false
    /// --format; nil: text on a terminal, JSON otherwise.
    public var format: Format?
    /// --lang; nil: the environment's (`OutputLanguage`).
    public var language: Catalogue?
    /// --preview: the model's input drawn above the scores in the terminal status block (ignored
    /// with JSON output).
    public var preview = false
    public var session = CameraOptions()
    /// --checks and --min-score.
    public var verdictPolicy = VerdictPolicy(checks: CameraCommandOptions.Declared.checks.defaultValue)
    /// --bench-frames IMAGE, and its --iterations.
    public var benchFramesImage: String?
    public var iterations = CameraCommandOptions.Declared.iterations.defaultValue
    /// The model options classify and serve share; the monitor hands the session its class count.
    public var model = ModelOptions()
    /// --name NAME; nil: the device's own name (`CameraMonitor.defaultName`).
    public var cameraName: String?
    /// --log FILE: one JSON line appended per result.
    public var logPath: String?
    /// --journal FILE, --no-journal, events and retention.
    public var journal = JournalOptions()
    /// --mqtt URL, --mqtt-password-file FILE and --mqtt-ca FILE.
    public var mqttURL: String?
    public var mqttPasswordFile: String?
    public var mqttCAFile: String?
    /// One line each for old spellings used (`DeprecatedSpelling`), for the command to print.
    public var notices: [String] = []

    /// The options only this subcommand takes, each declared once.
    enum Declared {
        /// --frames's range.
        static let frameLimits = 1...1_000_000_000
        /// --duration's range, above its lower bound: up to a year.
        static let durations = 0.0...31_536_000.0
        /// --bench-frames's --iterations range.
        static let iterationCounts = 1...1_000_000

        /// --format FORMAT, which before 0.1.0 was the pixel format: those names still work, with a notice.
        static let format = Option<String?>(
            "--format", placeholder: "FORMAT", default: nil,
            help: .lines(["text (the status block) or json (one object per frame, then a summary object)",
                          "(default: text on a terminal, else json)"])
        ) { text throws(UsageError) in
            guard Format(rawValue: text) != nil || text == "auto" || FramePixelFormat(rawValue: text) != nil else {
                throw OptionValue.notAChoice("--format", text, Format.allCases.map(\.rawValue))
            }
            return text
        }
        /// --json, before 0.1.0: --format json.
        static let json = Flag("--json", help: .deprecated(replacement: "--format json"))

        static let checks = SharedOptions.checks.defaulting(
            to: .cameraDefault,
            help: .lines(["verdict checks to run: picture, vegetation, generalist, score, mirror,",
                          "comma-separated, or all or none (default: \(VerdictChecks.cameraDefault))"]))
        static let frames = Declare.integer("--frames", range: frameLimits) { range in .lines(["stop after N classified frames, \(range)"]) }
        static let duration = Declare.number("--duration", placeholder: "S", range: durations, aboveLowerBound: true) { range in
            .lines(["stop after S seconds, \(range) (a year)"])
        }
        static let preview = Flag("--preview", help: .lines([
            "on a terminal, draw the model's input (48x24 cells) above the scores, in 24-bit colour",
            "(COLORTERM=truecolor or 24bit), 256 colours (TERM=*256color*) or else grey shades",
            "(also with NO_COLOR set); none with TERM dumb or unset. Accepted and ignored with",
            "JSON output (--format json, or stdout not a terminal)",
        ]))
        static let list = Flag("--list", help: .lines(["list every /dev/video* with its formats, sizes and rates"]))
        static let iterations = Declare.integer("--iterations", range: iterationCounts, default: 200) { _, _ in .mentionedIn("--bench-frames") }
        static let benchFrames = Declare.text(
            "--bench-frames", placeholder: "IMAGE",
            help: .lines(["time frame -> model input for YUYV and MJPEG frames made from IMAGE",
                          "against invoke (make bench runs this); --iterations N, \(OptionRange.phrase(iterationCounts)) "
                          + "(default: \(iterations.defaultValue))"]))
    }

    /// Every option camera takes, in the order its help lists them.
    public static let optionTable: [OptionSpec] = [
        CameraMonitorOptions.device.spec,
        CameraMonitorOptions.pixelFormat.spec,
        CameraMonitorOptions.size.spec,
        CameraMonitorOptions.fps.spec,
        SharedOptions.crop.spec,
    ] + ModelOptions.options + [
        Declared.checks.spec,
        SharedOptions.minimumScore.spec,
        Declared.frames.spec,
        Declared.duration.spec,
        CameraMonitorOptions.timeout.spec,
        Declared.format.spec,
        SharedOptions.language.described(.lines(["language of the status block, of the lines on stderr, of the JSON \"display\"",
                                                 "and \"advice\", and of the names Home Assistant shows: " + Catalogue.languages.joined(separator: ", ")
                                                 + " (default: from LC_ALL, LC_MESSAGES or LANG, else en)"])).spec,
        Declared.preview.spec,
        CameraMonitorOptions.saveFrames.spec,
        CameraMonitorOptions.input.spec,
        CameraMonitorOptions.name.spec,
        CameraMonitorOptions.every.spec,
        CameraMonitorOptions.log.spec,
    ] + JournalOptions.options + [
        CameraMonitorOptions.mqtt.spec,
        CameraMonitorOptions.mqttPasswordFile.spec,
        CameraMonitorOptions.mqttCA.spec,
        Declared.list.spec,
        Declared.benchFrames.spec,
        Declared.iterations.spec,
        Declared.json.spec,
        SharedOptions.help.spec,
    ]

    /// camera's arguments, range-checked.
    /// - Throws: `UsageError` for an unknown option, a value out of range, or options that do not go together.
    public static func parse(_ arguments: [String]) throws(UsageError) -> CameraCommandOptions {
        let parsed = try Arguments(arguments, options: optionTable)
        var options = CameraCommandOptions()
        if parsed.has(SharedOptions.help) {
            options.help = true
            return options
        }
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
        if let text = try parsed.value(Declared.format) {
            if let chosen = Format(rawValue: text) {
                options.format = chosen
            } else {
                options.session.request.format = try CameraMonitorOptions.pixelFormat(named: text, option: "--format")
                options.notices.append(DeprecatedSpelling.notice("--format \(text)", replacement: "--pixel-format \(text)"))
            }
        }
        options.language = try parsed.value(SharedOptions.language)
        if parsed.has(Declared.json) {
            options.format = .json
            options.notices.append(DeprecatedSpelling.notice("--json", replacement: "--format json"))
        }
        try CameraMonitorOptions.read(parsed, into: &options)
        options.journal = try JournalOptions.read(parsed)
        options.model = try ModelOptions.read(parsed)
        options.session.frameLimit = try parsed.value(Declared.frames)
        options.session.duration = try parsed.value(Declared.duration)
        options.verdictPolicy = try SharedOptions.verdictPolicy(parsed, checks: Declared.checks)
        options.iterations = try parsed.value(Declared.iterations)
        options.list = parsed.has(Declared.list)
        options.preview = parsed.has(Declared.preview)
        options.benchFramesImage = try parsed.value(Declared.benchFrames)
        return options
    }
}
