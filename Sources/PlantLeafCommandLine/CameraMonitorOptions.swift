import PlantLeafCamera
import PlantLeafCore
import PlantLeafSupport

/// The camera monitor's own options: where frames come from, how they are read, and where the
/// readings go, in four groups. `plantleaf camera` lists each group where it reads best among its
/// own options; `plantleaf serve` takes them all together, under --device, when it runs the
/// monitor beside its page, so both parse them one way.
public struct CameraMonitorOptions: OptionGroup {
    public var capture = CaptureOptions()
    public var wait = FrameWaitOptions()
    public var feed = FeedOptions()
    public var mqtt = MQTTOptions()

    /// No options: the default device, no log, no broker.
    public init() {}

    init(capture: CaptureOptions, wait: FrameWaitOptions, feed: FeedOptions, mqtt: MQTTOptions) {
        (self.capture, self.wait, self.feed, self.mqtt) = (capture, wait, feed, mqtt)
    }

    /// What the session reads and how, without its stopping conditions.
    var session: CameraOptions {
        var session = CameraOptions()
        session.devicePath = capture.devicePath ?? session.devicePath
        session.request.format = capture.pixelFormat
        session.request.size = capture.size
        session.request.framesPerSecond = capture.framesPerSecond
        session.crop = capture.crop
        session.frameTimeout = wait.frameTimeout
        session.saveFramesDirectory = feed.saveFramesDirectory
        session.inputPath = feed.inputPath
        session.interval = feed.interval
        return session
    }

    /// A stream's frames are JPEGs of whatever size the sender chose: --input refuses the options
    /// that set up a V4L2 device, given even at their defaults. `CameraCommandOptions.validate()`
    /// runs it, for serve's camera too, once the pixel format of --format's old spelling is in `capture`.
    /// - Throws: `UsageError` naming the first of them given with --input.
    func checkStream() throws(UsageError) {
        guard feed.inputPath != nil else { return }
        let given = [capture.devicePath != nil, capture.$pixelFormat.given || capture.pixelFormat != nil, capture.$size.given, capture.framesPerSecond != nil]
        if let index = given.firstIndex(of: true) {
            throw UsageError("\(Self.deviceOnlyNames[index]) is for V4L2 devices and cannot be used with --input")
        }
    }

    /// Whether `parsed` names a camera: a device or a stream.
    static func namesCamera(_ parsed: Arguments) -> Bool { parsed.gave(device) || parsed.gave(input) }

    /// The first of these options `parsed` holds besides --device and --input, by name (serve
    /// refuses them without a camera).
    static func firstGiven(_ parsed: Arguments) -> String? {
        options.first { ![device.name, input.name].contains($0.name) && parsed.gave($0) }?.name
    }

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
    fileprivate static let defaults = CameraOptions()

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

    /// The options that set up a V4L2 device, which a stream read with --input has no use for.
    static let deviceOnlyNames = [device.name, pixelFormat.name, size.name, fps.name]

    static let input = Declare.text(
        "--input", placeholder: "FILE|-",
        help: .lines(["read a motion-JPEG stream (JPEG frames back to back, or multipart/x-mixed-replace)",
                      "from FILE, a pipe or standard input instead of a device, e.g.",
                      "rpicam-vid -t 0 --codec mjpeg -o - | plantleaf camera --input -",
                      "(frames up to 16 MiB; not with \(deviceOnlyNames.joined(separator: ", ")))"]))

    /// The longest --name: a name for a page's heading and Home Assistant's device list.
    static let nameCharacters = 64
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
}

/// How a V4L2 device is asked for frames, and the part of each frame the model sees.
public struct CaptureOptions: OptionGroup {
    /// --device PATH; nil: the default device.
    @Bound(CameraMonitorOptions.device) public var devicePath: String?
    /// nil: auto, the best rate at the size.
    @Bound(CameraMonitorOptions.pixelFormat) public var pixelFormat: FramePixelFormat?
    @Bound(CameraMonitorOptions.size) public var size: FrameSize
    /// nil: the fastest the device lists.
    @Bound(CameraMonitorOptions.fps) public var framesPerSecond: Double?
    @Bound(SharedOptions.crop) public var crop: CropMode

    public init() {}
}

/// How long the monitor waits for a frame before it gives up: camera lists it with the options
/// that end a run.
public struct FrameWaitOptions: OptionGroup {
    @Bound(Declare.number("--timeout", placeholder: "S", range: CameraMonitorOptions.frameTimeouts,
                          default: CameraMonitorOptions.defaults.frameTimeout) { range, fallback in
        .lines(["give up when no frame arrives for S seconds, from \(range) (default: \(fallback))"])
    }) public var frameTimeout: Double

    public init() {}
}

/// Where the frames come from besides a device, what the camera is called, how often it reads,
/// and the frames and readings it keeps in files.
public struct FeedOptions: OptionGroup {
    @Bound(Declare.text("--save-frames", placeholder: "DIR",
                        help: .lines(["save each classified frame (the model's input) as JPEG, top-1 in the name"])))
    public var saveFramesDirectory: String?
    /// --input FILE|-: a motion-JPEG stream instead of a device.
    @Bound(CameraMonitorOptions.input) public var inputPath: String?
    /// --name NAME, checked (`CameraMonitorOptions.cameraName`); nil: the device's own name (`CameraMonitor.defaultName`).
    @Bound(Option<String?>(
        "--name", placeholder: "NAME", default: nil,
        help: .lines(["the camera's name on the pages, in the journal and in Home Assistant,",
                      "e.g. \"Greenhouse 1\", up to \(CameraMonitorOptions.nameCharacters) characters (default: the device's own name,",
                      "such as \"UVC Camera (046d:0825)\"; for --input, the file's name, or Camera for -)"])
    ) { text throws(UsageError) in try CameraMonitorOptions.cameraName(text) })
    public var name: String?
    /// --every DURATION in seconds; nil: classify continuously.
    @Bound(Declare.duration("--every", placeholder: "DURATION", range: CameraMonitorOptions.intervals, help: .lines([
        "one classification of a fresh frame per DURATION (500ms, 30s, 5m, 1h; \(OptionRange.number(CameraMonitorOptions.intervals.lowerBound)) s "
            + "to \(OptionRange.number(CameraMonitorOptions.intervals.upperBound / 3600)) h);",
        "the device is closed in between, and one that fails is waited for and reopened"])))
    public var interval: Double?
    /// --log FILE: one JSON line appended per result.
    @Bound(Declare.text("--log", placeholder: "FILE",
                        help: .lines(["append one JSON line per result to FILE, on disk before the next frame (fsync);",
                                      "SIGHUP reopens FILE (for logrotate)"])))
    public var logPath: String?

    public init() {}
}

/// The MQTT broker each result is published to, and how to log in to it.
public struct MQTTOptions: OptionGroup {
    @Bound(Declare.text(
        "--mqtt", placeholder: "URL",
        help: .lines(["publish each result to an MQTT broker (QoS 1) with Home Assistant discovery:",
                      "mqtt://[user@]host[:port]/base/topic, or mqtts:// for TLS; the password comes from",
                      "PLANTLEAF_MQTT_PASSWORD or --mqtt-password-file FILE, never the command line;",
                      "--mqtt-ca FILE: the CA for mqtts:// (default: the system's). A broker that is",
                      "away never holds up the camera: the newest result waits, older ones are dropped"])))
    public var url: String?
    @Bound(Declare.text("--mqtt-password-file", placeholder: "FILE", help: .mentionedIn("--mqtt"))) public var passwordFile: String?
    @Bound(Declare.text("--mqtt-ca", placeholder: "FILE", help: .mentionedIn("--mqtt"))) public var caFile: String?

    public init() {}

    /// - Throws: `UsageError` for a password file or CA without a broker.
    public func validate() throws(UsageError) {
        guard url == nil, let alone = [$passwordFile, $caFile].first(where: \.given) else { return }
        throw UsageError("\(alone.spec.name) goes with --mqtt URL")
    }
}
