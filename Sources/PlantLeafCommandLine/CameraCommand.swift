import Glibc
import PlantLeafCore
import PlantLeafCamera
import PlantLeafBench
import PlantLeafSupport

/// `plantleaf camera`: live classification of a V4L2 webcam's frames.
enum CameraCommand: Subcommand {
    static let configuration = CommandConfiguration(
        name: "camera", abstract: "live classification from a V4L2 webcam (--list shows the cameras)",
        options: CameraCommandOptions.optionTable, helpLabelWidth: 19)

    /// The help text above the options.
    static let helpIntroduction = """
        USAGE: plantleaf camera [options]
               plantleaf camera --input FILE|- [options]
               plantleaf camera --list
               plantleaf camera --bench-frames IMAGE [--size WxH] [--iterations N]

        Classifies what a V4L2 webcam (or a motion-JPEG stream) sees, live. Capture runs on its own
        thread; inference always takes the newest frame (older ones are dropped, never queued). On a
        terminal a status block is redrawn in place; otherwise, or with --format json, one JSON object per
        classified frame, each with its capture time (ISO 8601, local time and offset), and each with
        a verdict as classify gives it (docs/verdicts.md); a frame whose picture readings repeat the
        previous frame's exactly is no-picture (a stalled camera).

        OPTIONS:
        """

    /// The help text below the options.
    static let helpConclusion = """
        Ctrl-C or SIGTERM stops cleanly and prints the summary; so does the end of an --input stream.
        EXIT CODES: 0 done, stopped or the stream ended, 1 the camera failed mid-stream (unplugged, no frames),
        2 usage, device (none at all for --list), model or runtime set-up error, or stdout or the --log file
        cannot be written.
        """

    static func run(_ arguments: [String], bytes _: [[UInt8]]) -> Int32 {
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
        for notice in parsed.notices { Console.error("plantleaf camera: \(notice)") }
        if parsed.list { return list(in: OutputLanguage.catalogue(option: parsed.language)) }
        if let image = parsed.benchFramesImage {
            let classifier: Classifier
            do {
                classifier = try Classifier(options: CameraMonitor.classifierOptions(parsed))
            } catch {
                Console.error("plantleaf camera: \(Remedy.line(error))")
                return ExitCode.setupFailure
            }
            return benchmark(classifier: classifier, imagePath: image, size: parsed.session.request.size, crop: parsed.session.crop,
                             iterations: parsed.iterations)
        }
        // SIGHUP reopens the journal (and --log, whose own handler counts it too) rather than ending the run.
        if !parsed.journal.disabled && parsed.feed.logPath == nil { HangUp.install() }
        guard var monitor = CameraMonitor(parsed, command: "plantleaf camera", openJournal: { parsed.journal.recorder(command: "plantleaf camera", in: $0) }) else { return ExitCode.setupFailure }
        let json = (parsed.format ?? (Console.stdoutIsTerminal ? .text : .json)) == .json
        var preview: TerminalPreview?
        if parsed.preview && !json {
            let mode = TerminalColorMode.detect(environment: terminalEnvironment())
            if mode == .none {
                Console.error("plantleaf camera: " + monitor.lineCatalogue["camera.no-preview"])
            } else {
                preview = TerminalPreview(mode: mode)
                monitor.keepModelInput()
            }
        }
        return monitor.run(output: json ? .json : .statusBlock(StatusBlock(preview: preview, inPlace: Console.stdoutIsTerminal)))
    }

    /// The variables that choose the preview's colours, from this process's environment.
    private static func terminalEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        for name in ["NO_COLOR", "TERM", "COLORTERM"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }

    // MARK: --list

    private static func list(in catalogue: Catalogue) -> Int32 {
        let paths = V4L2Device.nodePaths()
        guard !paths.isEmpty else {
            Console.error("plantleaf camera: " + catalogue["camera.list.no-devices"])
            return ExitCode.setupFailure
        }
        for path in paths {
            let description: DeviceDescription
            do {
                description = try V4L2Device(path: path).describe()
            } catch {
                Console.out(error.description(in: catalogue))
                continue
            }
            Console.out(CameraOutput.deviceListing(path: path, description, in: catalogue))
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
    /// Redrawn over the last block (a terminal), or written after it (--format text into a
    /// file or pipe, where cursor movements would be noise).
    let inPlace: Bool
    private var drawnLines = 0

    init(preview: TerminalPreview?, inPlace: Bool) {
        self.preview = preview
        self.inPlace = inPlace
    }

    mutating func draw(_ result: CameraResult, catalogue: Catalogue) {
        let lines = CameraOutput.statusLines(result, header: header, preview: preview, catalogue: catalogue)
        guard inPlace else {
            Console.write(lines.map { $0 + "\n" }.joined(), to: STDOUT_FILENO)
            return
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
