import PlantLeafCamera
import PlantLeafCore
import PlantLeafSupport

/// The camera monitor's own options: where frames come from, how they are read, and where the
/// readings go. `plantleaf camera` lists them in its help; `plantleaf serve` takes the same
/// declarations when it runs the monitor beside its page, so both parse them one way.
public enum CameraMonitorOptions {
    /// Frame sizes --size takes: up to 8K UHD, down to well below any webcam's smallest mode.
    public static let frameWidths = 16...7680, frameHeights = 16...4320
    /// --fps's range, above its lower bound.
    static let frameRates = 0.0...1000.0
    /// --timeout's range. From 0.1 s: the "no frame within S s" line shows a tenth of a second,
    /// and a shorter wait for a camera's next frame is a typo, not a setting.
    static let frameTimeouts = 0.1...3600.0
    /// --every's range: from ten readings a second to one a day.
    public static let intervals = 0.1...86_400.0

    /// What the session does without options.
    private static let defaults = CameraOptions()

    static let device = Declare.text("--device", placeholder: "PATH", help: .lines(["capture device (default: \(defaults.devicePath))"]))

    /// --pixel-format FORMAT: nil is auto, the best rate at --size. Its names are the
    /// pixel-format table's, in its order.
    static let pixelFormat = Option<FramePixelFormat?>(
        "--pixel-format", placeholder: "FORMAT", default: nil,
        help: .lines([(["auto"] + FramePixelFormat.table.map(\.format.rawValue)).dropLast().joined(separator: ", ")
                      + " or \(FramePixelFormat.table.last!.format.rawValue) (default: auto: the best rate at --size)"])
    ) { text throws(UsageError) in try pixelFormat(named: text, option: "--pixel-format") }

    /// "auto" or a table name as a format; nil for auto.
    static func pixelFormat(named text: String, option: String) throws(UsageError) -> FramePixelFormat? {
        guard text != "auto" else { return nil }
        guard let format = FramePixelFormat(rawValue: text) else {
            throw OptionValue.notAChoice(option, text, ["auto"] + FramePixelFormat.table.map(\.format.rawValue))
        }
        return format
    }

    static let size = Option<FrameSize>(
        "--size", placeholder: "WxH", default: defaults.request.size,
        help: .lines(["frame size to ask for: W even, \(OptionRange.phrase(frameWidths)); H \(OptionRange.phrase(frameHeights)) "
                      + "(default: \(defaults.request.size))"])
    ) { text throws(UsageError) in
        guard let size = FrameSize(parsing: text) else { throw UsageError("--size must look like 640x480, got '\(text)'") }
        // YUYV packs two pixels into four bytes, so an odd width has no frame layout.
        guard frameWidths.contains(size.width), size.width % 2 == 0, frameHeights.contains(size.height) else {
            let widths: String = OptionRange.phrase(frameWidths), heights: String = OptionRange.phrase(frameHeights)
            throw UsageError("--size must be an even width from \(widths) and a height from \(heights), got '\(text)'")
        }
        return size
    }

    static let fps = Declare.number("--fps", placeholder: "N", range: frameRates, aboveLowerBound: true) { range in
        .lines(["frame rate to ask for, \(range) (default: the fastest the device lists)"])
    }

    static let timeout = Declare.number("--timeout", placeholder: "S", range: frameTimeouts, default: defaults.frameTimeout) { range, fallback in
        .lines(["give up when no frame arrives for S seconds, from \(range) (default: \(fallback))"])
    }

    static let saveFrames = Declare.text("--save-frames", placeholder: "DIR",
                                         help: .lines(["save each classified frame (the model's input) as JPEG, top-1 in the name"]))

    /// The options that set up a V4L2 device, which a stream read with --input has no use for.
    static let deviceOnlyNames = [device.name, pixelFormat.name, size.name, fps.name]

    static let input = Declare.text(
        "--input", placeholder: "FILE|-",
        help: .lines(["read a motion-JPEG stream (JPEG frames back to back, or multipart/x-mixed-replace)",
                      "from FILE, a pipe or standard input instead of a device, e.g.",
                      "rpicam-vid -t 0 --codec mjpeg -o - | plantleaf camera --input -",
                      "(frames up to 16 MiB; not with \(deviceOnlyNames.joined(separator: ", ")))"]))

    static let every: Option<Double?> = {
        let shortest: String = OptionRange.number(intervals.lowerBound)
        let longest: String = OptionRange.number(intervals.upperBound / 3600)
        return Declare.duration("--every", placeholder: "DURATION", range: intervals,
                                help: .lines(["one classification of a fresh frame per DURATION (500ms, 30s, 5m, 1h; \(shortest) s to \(longest) h);",
                                              "the device is closed in between, and one that fails is waited for and reopened"]))
    }()

    /// The longest --name: a name for a page's heading and Home Assistant's device list.
    static let nameCharacters = 64
    static let name = Declare.text(
        "--name", placeholder: "NAME",
        help: .lines(["the camera's name on the pages, in the journal and in Home Assistant,",
                      "e.g. \"Greenhouse 1\", up to \(nameCharacters) characters (default: the device's own name,",
                      "such as \"UVC Camera (046d:0825)\"; for --input, the file's name, or Camera for -)"]))

    static let log = Declare.text("--log", placeholder: "FILE",
                                  help: .lines(["append one JSON line per result to FILE, on disk before the next frame (fsync);",
                                                "SIGHUP reopens FILE (for logrotate)"]))

    static let mqtt = Declare.text(
        "--mqtt", placeholder: "URL",
        help: .lines(["publish each result to an MQTT broker (QoS 1) with Home Assistant discovery:",
                      "mqtt://[user@]host[:port]/base/topic, or mqtts:// for TLS; the password comes from",
                      "PLANTLEAF_MQTT_PASSWORD or --mqtt-password-file FILE, never the command line;",
                      "--mqtt-ca FILE: the CA for mqtts:// (default: the system's). A broker that is",
                      "away never holds up the camera: the newest result waits, older ones are dropped"]))
    static let mqttPasswordFile = Declare.text("--mqtt-password-file", placeholder: "FILE", help: .mentionedIn("--mqtt"))
    static let mqttCA = Declare.text("--mqtt-ca", placeholder: "FILE", help: .mentionedIn("--mqtt"))

    /// Every one of them, as serve lists them; camera's help places each where it reads best.
    static let all: [OptionSpec] = [device.spec, input.spec, name.spec, pixelFormat.spec, size.spec, fps.spec, SharedOptions.crop.spec,
                                    timeout.spec, every.spec, log.spec, mqtt.spec, mqttPasswordFile.spec, mqttCA.spec, saveFrames.spec]

    /// Whether `parsed` names a camera: a device or a stream.
    static func namesCamera(_ parsed: Arguments) -> Bool { parsed.gave(device) || parsed.gave(input) }

    /// The first of these options `parsed` holds, by name (serve refuses them without a camera).
    static func firstGiven(_ parsed: Arguments) -> String? {
        let given: [(String, Bool)] = [(name.name, parsed.gave(name)), (pixelFormat.name, parsed.gave(pixelFormat)), (size.name, parsed.gave(size)),
                                       (fps.name, parsed.gave(fps)), (SharedOptions.crop.name, parsed.gave(SharedOptions.crop)),
                                       (timeout.name, parsed.gave(timeout)), (every.name, parsed.gave(every)), (log.name, parsed.gave(log)),
                                       (mqtt.name, parsed.gave(mqtt)), (mqttPasswordFile.name, parsed.gave(mqttPasswordFile)),
                                       (mqttCA.name, parsed.gave(mqttCA)), (saveFrames.name, parsed.gave(saveFrames))]
        return given.first { $0.1 }?.0
    }

    /// --name's text, checked: some visible characters, at most `nameCharacters`, no control
    /// characters (it is a heading, a journal source and a Home Assistant name).
    static func cameraName(_ text: String) throws(UsageError) -> String {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty, trimmed.count <= nameCharacters,
              !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            throw UsageError("--name must be 1 to \(nameCharacters) characters with no control characters, got '\(TerminalText.neutralised(text))'")
        }
        return trimmed
    }

    /// These options of `parsed` into `options`, checked for what goes together.
    /// - Throws: `UsageError` for a value out of range or options that do not go together.
    static func read(_ parsed: Arguments, into options: inout CameraCommandOptions) throws(UsageError) {
        var session = options.session
        session.devicePath = try parsed.value(device) ?? session.devicePath
        session.request.format = try parsed.value(pixelFormat) ?? session.request.format
        session.request.size = try parsed.value(size)
        session.request.framesPerSecond = try parsed.value(fps)
        session.crop = try parsed.value(SharedOptions.crop)
        session.frameTimeout = try parsed.value(timeout)
        session.saveFramesDirectory = try parsed.value(saveFrames)
        session.inputPath = try parsed.value(input)
        if session.inputPath != nil {
            // A stream's frames are JPEGs of whatever size the sender chose.
            let given = [parsed.gave(device), parsed.gave(pixelFormat) || session.request.format != nil, parsed.gave(size), parsed.gave(fps)]
            if let index = given.firstIndex(of: true) {
                throw UsageError("\(deviceOnlyNames[index]) is for V4L2 devices and cannot be used with --input")
            }
        }
        session.interval = try parsed.value(every)
        options.session = session
        if let text = try parsed.value(name) { options.cameraName = try cameraName(text) }
        options.logPath = try parsed.value(log)
        options.mqttURL = try parsed.value(mqtt)
        options.mqttPasswordFile = try parsed.value(mqttPasswordFile)
        options.mqttCAFile = try parsed.value(mqttCA)
        if options.mqttURL == nil, let option = [mqttPasswordFile, mqttCA].first(where: { parsed.gave($0) }) {
            throw UsageError("\(option.name) goes with --mqtt URL")
        }
    }
}
