import PlantLeafCore

extension CameraCommandOptions {
    /// Frame sizes --size takes: up to 8K UHD, down to well below any webcam's smallest mode.
    public static let frameWidths = 16...7680, frameHeights = 16...4320
    /// --fps's range, above its lower bound.
    static let frameRates = 0.0...1000.0
    /// --frames's range.
    static let frameLimits = 1...1_000_000_000
    /// --duration's range, above its lower bound: up to a year.
    static let durations = 0.0...31_536_000.0
    /// --timeout's range. From 0.1 s: the "no frame within S s" line shows a tenth of a second,
    /// and a shorter wait for a camera's next frame is a typo, not a setting.
    static let frameTimeouts = 0.1...3600.0
    /// --bench-frames's --iterations range.
    static let iterationCounts = 1...1_000_000
    /// --every's range: from ten readings a second to one a day.
    public static let intervals = 0.1...86_400.0

    /// The options that set up a V4L2 device, which a stream read with --input has no use for.
    static let deviceOnlyOptions = ["--device", "--format", "--size", "--fps"]

    /// Where the help's defaults come from: what parse leaves when an option is not given.
    private static let defaults = CameraCommandOptions()

    /// --size's line: the frame sizes it takes, and the size asked for without it.
    private static let sizeLine: String = {
        let widths: String = OptionRange.phrase(frameWidths), heights: String = OptionRange.phrase(frameHeights)
        let size: String = defaults.session.request.size.description
        return "frame size to ask for: W even, \(widths); H \(heights) (default: \(size))"
    }()

    /// --timeout's line: its range and the wait without it.
    private static let timeoutLine: String = {
        let wait: String = OptionRange.number(defaults.session.frameTimeout)
        return "give up when no frame arrives for S seconds, from \(OptionRange.phrase(frameTimeouts)) (default: \(wait))"
    }()

    /// --bench-frames's second line, which describes its --iterations.
    private static let iterationsLine: String = {
        let counts: String = OptionRange.phrase(iterationCounts)
        return "against invoke (make bench runs this); --iterations N, \(counts) (default: \(defaults.iterations))"
    }()

    /// --every's line: its range in seconds up to hours, as the values are usually written.
    private static let everyLine: String = {
        let shortest: String = OptionRange.number(intervals.lowerBound)
        let longest: String = OptionRange.number(intervals.upperBound / 3600)
        return "one classification of a fresh frame per DURATION (500ms, 30s, 5m, 1h; \(shortest) s to \(longest) h);"
    }()

    /// Every option camera takes, in the order its help lists them.
    public static let optionTable: [OptionSpec] = [
        OptionSpec("--device", .valued(placeholder: "PATH"), .lines(["capture device (default: \(defaults.session.devicePath))"])),
        OptionSpec("--format", .valued(placeholder: "FORMAT"),
                   .lines(["auto, yuyv, mjpeg, nv12 or rgb24 (default: auto: the best rate at --size)"])),
        OptionSpec("--size", .valued(placeholder: "WxH"), .lines([sizeLine])),
        OptionSpec("--fps", .valued(placeholder: "N"),
                   .lines(["frame rate to ask for, \(OptionRange.phraseAboveLowerBound(frameRates)) (default: the fastest the device lists)"])),
        OptionSpec("--crop", .valued(placeholder: "MODE"), .lines(["center (largest centred square, default) or none (whole frame)"])),
        OptionSpec("--top-k", .valued(placeholder: "N"),
                   .lines(["classes per frame, \(OptionRange.phrase(OptionRange.topK)) (default: \(defaults.session.topK))"])),
        OptionSpec("--checks", .valued(placeholder: "LIST"),
                   .lines(["verdict checks to run: picture, vegetation, score, mirror, comma-separated,",
                           "or all or none (default: all)"])),
        OptionSpec.minimumScore,
        OptionSpec("--threads", .valued(placeholder: "N"),
                   .lines(["CPU threads for inference, \(OptionRange.phrase(OptionRange.threads)) (default: \(defaults.threads))"])),
        OptionSpec("--no-cache", .flag, .lines(["compile the model without XNNPACK's weight cache (see plantleaf classify --help)"])),
        OptionSpec("--frames", .valued(placeholder: "N"), .lines(["stop after N classified frames, \(OptionRange.phrase(frameLimits))"])),
        OptionSpec("--duration", .valued(placeholder: "S"),
                   .lines(["stop after S seconds, \(OptionRange.phraseAboveLowerBound(durations)) (a year)"])),
        OptionSpec("--timeout", .valued(placeholder: "S"),
                   .lines([timeoutLine])),
        OptionSpec("--json", .flag, .lines(["one JSON object per frame on stdout, then a summary object"])),
        OptionSpec("--preview", .flag,
                   .lines(["on a terminal, draw the model's input (48x24 cells) above the scores, in 24-bit colour",
                           "(COLORTERM=truecolor or 24bit), 256 colours (TERM=*256color*) or else grey shades",
                           "(also with NO_COLOR set); none with TERM dumb or unset. Accepted and ignored with",
                           "JSON output (--json, or stdout not a terminal)"])),
        OptionSpec("--save-frames", .valued(placeholder: "DIR"),
                   .lines(["save each classified frame (the model's input) as JPEG, top-1 in the name"])),
        OptionSpec("--input", .valued(placeholder: "FILE|-"),
                   .lines(["read a motion-JPEG stream (JPEG frames back to back, or multipart/x-mixed-replace)",
                           "from FILE, a pipe or standard input instead of a device, e.g.",
                           "rpicam-vid -t 0 --codec mjpeg -o - | plantleaf camera --input -",
                           "(frames up to 16 MiB; not with \(deviceOnlyOptions.joined(separator: ", ")))"])),
        OptionSpec("--every", .valued(placeholder: "DURATION"),
                   .lines([everyLine, "the device is closed in between, and one that fails is waited for and reopened"])),
        OptionSpec("--log", .valued(placeholder: "FILE"),
                   .lines(["append one JSON line per result to FILE, on disk before the next frame (fsync);",
                           "SIGHUP reopens FILE (for logrotate)"])),
        OptionSpec("--mqtt", .valued(placeholder: "URL"),
                   .lines(["publish each result to an MQTT broker (QoS 1) with Home Assistant discovery:",
                           "mqtt://[user@]host[:port]/base/topic, or mqtts:// for TLS; the password comes from",
                           "PLANTLEAF_MQTT_PASSWORD or --mqtt-password-file FILE, never the command line;",
                           "--mqtt-ca FILE: the CA for mqtts:// (default: the system's). A broker that is",
                           "away never holds up the camera: the newest result waits, older ones are dropped"])),
        OptionSpec("--mqtt-password-file", .valued(placeholder: "FILE"), .mentionedIn("--mqtt")),
        OptionSpec("--mqtt-ca", .valued(placeholder: "FILE"), .mentionedIn("--mqtt")),
        OptionSpec("--model", .valued(placeholder: "FILE"), .sharesEntryWithNext(separator: ", ")),
        OptionSpec("--labels", .valued(placeholder: "FILE"), .lines(["as for classify"])),
        OptionSpec("--list", .flag, .lines(["list every /dev/video* with its formats, sizes and rates"])),
        OptionSpec("--bench-frames", .valued(placeholder: "IMAGE"),
                   .lines(["time frame -> model input for YUYV and MJPEG frames made from IMAGE",
                           iterationsLine])),
        OptionSpec("--iterations", .valued(placeholder: "N"), .mentionedIn("--bench-frames")),
        OptionSpec.helpFlag,
    ]
}
