import Glibc
import PlantLeafKit

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
        classified frame, each with its capture time (ISO 8601, local time and offset).

        OPTIONS:
          --device PATH      capture device (default: /dev/video0)
          --format FORMAT    auto, yuyv, mjpeg, nv12 or rgb24 (default: auto: the best rate at --size)
          --size WxH         frame size to ask for: W even, 16 to 7680; H 16 to 4320 (default: 640x480)
          --fps N            frame rate to ask for, above 0 and at most 1000 (default: the fastest the device lists)
          --crop MODE        center (largest centred square, default) or none (whole frame)
          --top-k N          classes per frame, 1 to 1000 (default: 3)
          --threads N        CPU threads for inference, 1 to 64 (default: 1)
          --frames N         stop after N classified frames, 1 to 1000000000
          --duration S       stop after S seconds, above 0 and at most 31536000 (a year)
          --timeout S        give up when no frame arrives for S seconds, above 0 and at most 3600 (default: 5)
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
            let defaults = ProjectPaths.defaultModelAndLabels()
            classifier = try Classifier(modelPath: parsed.modelPath ?? defaults.modelPath,
                                        labelsPath: parsed.labelsPath ?? defaults.labelsPath,
                                        threads: parsed.threads)
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
            for event in publisher?.takeEvents() ?? [] { Console.error("plantleaf camera: mqtt: \(event)") }
        }
        var status = StatusBlock(preview: preview)
        var logFailure: FileWriteError?
        let summary: CameraSummary
        do {
            summary = try CameraSession(classifier: classifier, options: options).run(onSetup: { setup in
                let line = describe(setup, crop: options.crop)
                Console.error("plantleaf camera: \(line)")
                status.header = line
            }, onResult: { result in
                let record = frameJSON(result).text
                if json { Console.out(record) } else { status.draw(result) }
                publisher?.publish(record)
                reportConnection()
                guard let log else { return true }
                do throws(FileWriteError) {
                    try log.append(record)
                    return true
                } catch {
                    logFailure = error
                    return false
                }
            }, onNotice: { notice in
                Console.error("plantleaf camera: \(notice)")
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

    /// The line that says what is being read, printed once before the first frame.
    private static func describe(_ setup: CameraSetup, crop: CropMode) -> String {
        switch setup {
        case .device(let setup):
            let rate = setup.stream.framesPerSecond.map { " at \(JSONObject.number($0, decimals: 2)) fps" } ?? ""
            return "\(setup.device.path) (\(setup.device.card), \(setup.device.driver)): \(setup.stream.format.displayName) "
                + "\(setup.stream.size)\(rate), crop \(crop.rawValue), \(setup.bufferCount) buffers [\(setup.plan.reason)]"
        case .stream(let name, let maxFrameBytes):
            return "\(name): motion-JPEG stream, crop \(crop.rawValue), frames up to \(maxFrameBytes >> 20) MiB"
        }
    }

    static func frameJSON(_ result: CameraResult) -> JSONObject {
        var object = JSONObject()
        object.add("frame", Int(result.sequence))
        object.add("time", result.time)
        object.add("top", objects: result.top.map(\.json))
        object.add("age_ms", result.ageMilliseconds, decimals: 2)
        object.add("prepare_ms", result.prepareMilliseconds, decimals: 3)
        object.add("invoke_ms", result.invokeMilliseconds, decimals: 3)
        object.add("capture_fps", result.counts.framesPerSecond, decimals: 2)
        object.add("inference_fps", result.inferenceFramesPerSecond, decimals: 2)
        object.add("dropped", result.counts.dropped)
        if let path = result.savedPath { object.add("saved", path) }
        return object
    }

    private static func report(_ summary: CameraSummary, options: CameraOptions, json: Bool) {
        let counts = summary.counts
        let median = summary.medianAge.map { JSONObject.number($0, decimals: 1) + " ms" } ?? "-"
        let p99 = summary.p99Age.map { JSONObject.number($0, decimals: 1) + " ms" } ?? "-"
        var text: String
        if options.inputPath != nil {
            text = "\(counts.captured) frames read, \(summary.classified) classified, \(counts.superseded) superseded, "
                + "\(counts.broken) broken, \(counts.oversized) over the size limit, \(summary.corrupt) corrupt, "
                + "\(counts.skippedBytes) bytes skipped between frames"
        } else {
            text = "\(counts.captured) frames captured, \(summary.classified) classified, \(counts.dropped) dropped by the driver, "
                + "\(counts.flaggedError) flagged bad, \(summary.corrupt) corrupt"
        }
        text += "; frame age median \(median), p99 \(p99)"
        let retriesDevice = options.interval != nil && options.inputPath == nil
        if retriesDevice { text += "; \(summary.failedAttempts) failed attempts" }
        if summary.streamEnded { text += "; the stream ended" }
        if let signal = summary.signal { text += "; stopped by \(signal == SIGINT ? "Ctrl-C" : "SIGTERM")" }
        if let reason = summary.lastCorruptReason { text += "; last corrupt frame: \(reason)" }
        Console.error("plantleaf camera: \(text)")
        guard json else { return }
        var object = JSONObject()
        object.add("time", WallClock.localISO8601())
        object.add("captured", counts.captured)
        object.add("classified", summary.classified)
        object.add("dropped", counts.dropped)
        object.add("flagged_error", counts.flaggedError)
        object.add("superseded", counts.superseded)
        object.add("corrupt", summary.corrupt)
        if options.inputPath != nil {
            object.add("broken", counts.broken)
            object.add("oversized", counts.oversized)
            object.add("skipped_bytes", counts.skippedBytes)
            object.add("stream_ended", summary.streamEnded)
        }
        if retriesDevice { object.add("failed_attempts", summary.failedAttempts) }
        if let value = summary.medianAge { object.add("age_median_ms", value, decimals: 2) } else { object.addNull("age_median_ms") }
        if let value = summary.p99Age { object.add("age_p99_ms", value, decimals: 2) } else { object.addNull("age_p99_ms") }
        if let failure = summary.failure { object.add("error", failure.description) }
        var wrapper = JSONObject()
        wrapper.add("summary", object)
        Console.out(wrapper.text)
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
            var lines = ["\(path): \(description.card) (driver \(description.driver), \(description.busInfo))"]
            for format in description.formats {
                let readable = format.pixelFormat == nil ? ", not readable by PlantLeaf" : ""
                lines.append("  \(FourCC.text(format.fourCC)) \(format.name)\(format.compressed ? " (compressed)" : "")\(readable)")
                switch format.sizes {
                case .discrete(let options):
                    for option in options {
                        let rates = option.intervals.map { JSONObject.number($0.framesPerSecond, decimals: 3) }
                        lines.append("    \(option.size)" + (rates.isEmpty ? "" : ": " + rates.joined(separator: ", ") + " fps"))
                    }
                case .stepwise(let minimum, let maximum, let step, _):
                    lines.append("    \(minimum) to \(maximum), step \(step)")
                }
            }
            Console.out(lines.joined(separator: "\n"))
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
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        func p99(_ values: [Double]) -> Double { values.sorted()[min(values.count - 1, Int(Double(values.count) * 0.99))] }
        let invoke = median(result.invoke)
        Console.out("frame -> model input, \(result.frameSize) frames from \(imagePath), crop \(crop.rawValue), \(iterations) iterations")
        for (name, times) in [("YUYV", result.yuyv), ("MJPEG (\(result.mjpegBytes) bytes, no DHT)", result.mjpeg), ("invoke", result.invoke)] {
            let ratio = name == "invoke" ? "" : "  = \(JSONObject.number(median(times) / invoke * 100, decimals: 1))% of invoke"
            Console.out("  \(name): median \(JSONObject.number(median(times), decimals: 3)) ms, p99 \(JSONObject.number(p99(times), decimals: 3)) ms\(ratio)")
        }
        let floor = median(result.mjpegDecoder)
        Console.out("  libjpeg-turbo alone on the MJPEG frame (the floor): median \(JSONObject.number(floor, decimals: 3)) ms; "
            + "MJPEG frame -> model input = \(JSONObject.number(median(result.mjpeg) / floor, decimals: 2))x the floor")
        Console.out("  frame-to-result (median): YUYV \(JSONObject.number(median(result.yuyv) + invoke, decimals: 3)) ms, "
            + "MJPEG \(JSONObject.number(median(result.mjpeg) + invoke, decimals: 3)) ms = invoke + "
            + "\(JSONObject.number(median(result.yuyv), decimals: 3)) / \(JSONObject.number(median(result.mjpeg), decimals: 3)) ms")
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
        var lines = [header]
        if let preview, let image = result.modelInput { lines += preview.render(image) }
        let counts = result.counts
        lines.append("\(result.time)   frame \(result.sequence)   age \(JSONObject.number(result.ageMilliseconds, decimals: 0)) ms   "
            + "capture \(JSONObject.number(counts.framesPerSecond, decimals: 1)) fps   "
            + "inference \(JSONObject.number(result.inferenceFramesPerSecond, decimals: 1)) fps   dropped \(counts.dropped)")
        for entry in result.top {
            let filled = Int((entry.score * 20).rounded())
            let bar = String(repeating: "█", count: max(0, min(20, filled))) + String(repeating: "·", count: max(0, 20 - filled))
            let percent = ClassifyCommand.formatFixed(entry.score * 100, decimals: 1)
            lines.append(String(repeating: " ", count: max(0, 6 - percent.count)) + percent + "% " + bar + " " + Labels.displayName(entry.label))
        }
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
