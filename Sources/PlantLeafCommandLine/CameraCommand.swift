import Glibc
import PlantLeafCore
import PlantLeafCamera
import PlantLeafReport

/// `plantleaf camera`: live classification of a V4L2 webcam's frames.
enum CameraCommand {
    /// The help text above the options.
    private static let helpIntroduction = """
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
        """

    /// The help text below the options.
    private static let helpConclusion = """
        Ctrl-C or SIGTERM stops cleanly and prints the summary; so does the end of an --input stream.
        EXIT CODES: 0 done, stopped or the stream ended, 1 the camera failed mid-stream (unplugged, no frames),
        2 usage, device (none at all for --list), model or runtime set-up error, or stdout or the --log file
        cannot be written.
        """

    /// The help text; its options rendered from CameraCommandOptions.optionTable.
    static let help: String = {
        let options: String = OptionSpec.helpSection(CameraCommandOptions.optionTable, labelWidth: 19)
        return [helpIntroduction, options, "", helpConclusion].joined(separator: "\n")
    }()

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
