import Glibc
import PlantLeafCore
import PlantLeafCamera
import PlantLeafReport

/// `plantleaf camera`: live classification of a V4L2 webcam's frames.
enum CameraCommand {
    static let help = """
        USAGE: plantleaf camera [options]
               plantleaf camera --input FILE|- [options]
               plantleaf camera --list
               plantleaf camera --bench-frames IMAGE [--size WxH] [--iterations N]

        Classifies what a V4L2 webcam (or a motion-JPEG stream) sees, live. Capture runs on its own
        thread; inference always takes the newest frame (older ones are dropped, never queued). On a
        terminal a status block is redrawn in place; otherwise, or with --json, one JSON object per
        classified frame, each with its capture time (ISO 8601, local time and offset), and each with
        a verdict as classify gives it (docs/verdicts.md); a frame whose picture readings repeat the
        previous frame's exactly is no-picture (a stalled camera).

        OPTIONS:
          --device PATH      capture device (default: /dev/video0)
          --format FORMAT    auto, yuyv, mjpeg, nv12 or rgb24 (default: auto: the best rate at --size)
          --size WxH         frame size to ask for: W even, 16 to 7680; H 16 to 4320 (default: 640x480)
          --fps N            frame rate to ask for, above 0 and at most 1000 (default: the fastest the device lists)
          --crop MODE        center (largest centred square, default) or none (whole frame)
          --top-k N          classes per frame, 1 to 1000 (default: 3)
          --checks LIST      verdict checks to run: picture, vegetation, score, mirror, comma-separated,
                             or all or none (default: all)
          --min-score X      top score below which the score and mirror checks say uncertain, 0 to 1 (default: 0.6)
          --threads N        CPU threads for inference, 1 to 64 (default: 1)
          --no-cache         compile the model without XNNPACK's weight cache (see plantleaf classify --help)
          --frames N         stop after N classified frames, 1 to 1000000000
          --duration S       stop after S seconds, above 0 and at most 31536000 (a year)
          --timeout S        give up when no frame arrives for S seconds, from 0.1 to 3600 (default: 5)
          --json             one JSON object per frame on stdout, then a summary object
          --preview          on a terminal, draw the model's input (48x24 cells) above the scores, in 24-bit colour
                             (COLORTERM=truecolor or 24bit), 256 colours (TERM=*256color*) or else grey shades
                             (also with NO_COLOR set); none with TERM dumb or unset. Accepted and ignored with
                             JSON output (--json, or stdout not a terminal)
          --save-frames DIR  save each classified frame (the model's input) as JPEG, top-1 in the name
          --input FILE|-     read a motion-JPEG stream (JPEG frames back to back, or multipart/x-mixed-replace)
                             from FILE, a pipe or standard input instead of a device, e.g.
                             rpicam-vid -t 0 --codec mjpeg -o - | plantleaf camera --input -
                             (frames up to 16 MiB; not with --device, --format, --size, --fps)
          --every DURATION   one classification of a fresh frame per DURATION (500ms, 30s, 5m, 1h; 0.1 s to 24 h);
                             the device is closed in between, and one that fails is waited for and reopened
          --log FILE         append one JSON line per result to FILE, on disk before the next frame (fsync);
                             SIGHUP reopens FILE (for logrotate)
          --mqtt URL         publish each result to an MQTT broker (QoS 1) with Home Assistant discovery:
                             mqtt://[user@]host[:port]/base/topic, or mqtts:// for TLS; the password comes from
                             PLANTLEAF_MQTT_PASSWORD or --mqtt-password-file FILE, never the command line;
                             --mqtt-ca FILE: the CA for mqtts:// (default: the system's). A broker that is
                             away never holds up the camera: the newest result waits, older ones are dropped
          --model FILE, --labels FILE  as for classify
          --list             list every /dev/video* with its formats, sizes and rates
          --bench-frames IMAGE  time frame -> model input for YUYV and MJPEG frames made from IMAGE
                             against invoke (make bench runs this); --iterations N, 1 to 1000000 (default: 200)
          -h, --help         show this help

        Ctrl-C or SIGTERM stops cleanly and prints the summary; so does the end of an --input stream.
        EXIT CODES: 0 done, stopped or the stream ended, 1 the camera failed mid-stream (unplugged, no frames),
        2 usage, device (none at all for --list), model or runtime set-up error, or stdout or the --log file
        cannot be written.
        """

    static func run(_ arguments: [String]) -> Int32 {
        let parsed: CameraCommandOptions
        do {
            parsed = try CameraCommandOptions.parse(arguments)
        } catch {
            Console.error("plantleaf camera: \(error) (see plantleaf camera --help)")
            return ExitCode.setupFailure
        }
        if parsed.help {
            Console.out(help)
            return ExitCode.success
        }
        if parsed.list { return list() }
        var options = parsed.session

        let classifier: Classifier
        do {
            classifier = try Classifier(options: ProjectPaths.classifierOptions(modelPath: parsed.modelPath, labelsPath: parsed.labelsPath,
                                                                                threads: parsed.threads, crop: options.crop,
                                                                                verdictPolicy: parsed.verdictPolicy,
                                                                                weightCache: !parsed.noCache))
        } catch {
            Console.error("plantleaf camera: \(Remedy.line(error))")
            return ExitCode.setupFailure
        }
        if let image = parsed.benchFramesImage {
            return benchmark(classifier: classifier, imagePath: image, size: options.request.size, crop: options.crop,
                             iterations: parsed.iterations)
        }
        let json = parsed.json || !Console.stdoutIsTerminal
        var log: AppendLog?
        if let path = parsed.logPath {
            do {
                log = try AppendLog(path: path)
            } catch {
                Console.error("plantleaf camera: --log \(path): \(error)")
                return ExitCode.setupFailure
            }
        }
        var publisher: MQTTPublisher?
        if let url = parsed.mqttURL {
            do {
                let settings = try MQTTSettings(url: url, passwordFile: parsed.mqttPasswordFile, caFile: parsed.mqttCAFile)
                publisher = try MQTTPublisher(settings: settings, softwareVersion: ProjectPaths.version)
                // Home Assistant's image entity shows the frame the reading was made from.
                options.keepModelInput = true
            } catch {
                Console.error("plantleaf camera: --mqtt: \(Remedy.line(error))")
                return ExitCode.setupFailure
            }
        }
        defer { publisher?.close() }
        var preview: TerminalPreview?
        if parsed.preview && !json {
            let mode = TerminalColorMode.detect(environment: terminalEnvironment())
            if mode == .none {
                Console.error("plantleaf camera: no --preview: TERM is unset or dumb, so this terminal cannot draw it")
            } else {
                preview = TerminalPreview(mode: mode)
                options.keepModelInput = true
            }
        }
        return live(classifier: classifier, options: options, json: json, log: log, publisher: publisher, preview: preview)
    }

    /// The variables that choose the preview's colours, from this process's environment.
    private static func terminalEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        for name in ["NO_COLOR", "TERM", "COLORTERM"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }

    // MARK: live view

    private static func live(classifier: Classifier, options: CameraOptions, json: Bool, log: AppendLog?,
                             publisher: MQTTPublisher?, preview: TerminalPreview?) -> Int32 {
        /// Connection changes, said as they are noticed (after each result and each notice).
        func reportConnection() {
            for event in publisher?.takeEvents() ?? [] { Console.error("plantleaf camera: mqtt: \(EventText.line(event))") }
        }
        var status = StatusBlock(preview: preview)
        var logFailure: FileWriteError?
        let summary: CameraSummary
        do {
            summary = try CameraSession(classifier: classifier, options: options).run(onSetup: { setup in
                let line = CameraOutput.setupLine(setup, crop: options.crop)
                Console.error("plantleaf camera: \(line)")
                status.header = line
            }, onResult: { result in
                let record = CameraOutput.frameRecord(result)
                if json { Console.out(record) } else { status.draw(result) }
                publisher?.publish(CameraOutput.mqttReading(result, record: record))
                reportConnection()
                if let log {
                    do throws(FileWriteError) {
                        try log.append(record)
                    } catch {
                        logFailure = error
                        return false
                    }
                }
                // A reader that has gone (`| head -1`) ends the run as classify's does, rather
                // than a camera classifying for no one; this reading still went to the log and broker.
                return !Console.stdoutFailed
            }, onNotice: { notice in
                Console.error("plantleaf camera: \(EventText.line(notice))")
                reportConnection()
            })
        } catch {
            Console.error("plantleaf camera: \(Remedy.line(error))")
            return ExitCode.setupFailure
        }
        reportConnection()
        report(summary, options: options, json: json)
        if let logFailure, let log {
            Console.error("plantleaf camera: --log \(log.path): cannot write: \(logFailure)")
            return ExitCode.setupFailure
        }
        if let failure = summary.failure {
            Console.error("plantleaf camera: \(Remedy.line(failure))")
            return ExitCode.partialFailure
        }
        return ExitCode.success
    }

    private static func report(_ summary: CameraSummary, options: CameraOptions, json: Bool) {
        let fromStream = options.inputPath != nil
        let retriesDevice = options.interval != nil && !fromStream
        Console.error("plantleaf camera: " + CameraOutput.summaryLine(summary, fromStream: fromStream, retriesDevice: retriesDevice))
        if json {
            Console.out(CameraOutput.summaryRecord(summary, fromStream: fromStream, retriesDevice: retriesDevice, time: WallClock.localISO8601()))
        }
    }

    // MARK: --list

    private static func list() -> Int32 {
        let paths = V4L2Device.nodePaths()
        guard !paths.isEmpty else {
            Console.error("plantleaf camera: no /dev/video* devices: plug a camera in (dmesg shows whether the kernel saw it)")
            return ExitCode.setupFailure
        }
        for path in paths {
            let description: DeviceDescription
            do {
                description = try V4L2Device(path: path).describe()
            } catch {
                Console.out("\(error)")
                continue
            }
            Console.out(CameraOutput.deviceListing(path: path, description))
        }
        return ExitCode.success
    }

    // MARK: --bench-frames

    private static func benchmark(classifier: Classifier, imagePath: String, size: FrameSize, crop: CropMode, iterations: Int) -> Int32 {
        let image: RGBImage
        do {
            image = try ImageDecoder().decode(try FileReader.readAll(path: imagePath))
        } catch {
            Console.error("plantleaf camera: \(imagePath): \(error)")
            return ExitCode.setupFailure
        }
        let result: FrameBenchmark.Result
        do {
            result = try FrameBenchmark.run(classifier: classifier, image: image, size: size, crop: crop, iterations: iterations)
        } catch {
            Console.error("plantleaf camera: \(error)")
            return ExitCode.setupFailure
        }
        Console.out(CameraOutput.frameBenchmarkReport(result, imageName: imagePath, crop: crop, iterations: iterations))
        return ExitCode.success
    }
}

/// The live status block on a terminal, redrawn in place.
struct StatusBlock {
    var header = ""
    /// --preview: the model's input, drawn between the header and the frame's numbers.
    let preview: TerminalPreview?
    private var drawnLines = 0

    init(preview: TerminalPreview?) {
        self.preview = preview
    }

    mutating func draw(_ result: CameraResult) {
        let lines = CameraOutput.statusLines(result, header: header, preview: preview)
        // Back to the block's first line, then each line cleared before it is written. Autowrap is
        // off meanwhile (DECAWM, ESC[?7l): a line wider than the terminal (the header often is) is
        // cut at the edge rather than wrapped onto a row the cursor-up count would miss, which
        // left the block one row lower, and a stale header above it, at every redraw.
        var text = "\u{1B}[?7l" + (drawnLines > 0 ? "\u{1B}[\(drawnLines)A\r" : "")
        text += lines.map { "\u{1B}[K" + $0 + "\n" }.joined() + "\u{1B}[?7h"
        Console.write(text, to: STDOUT_FILENO)
        drawnLines = lines.count
    }
}
