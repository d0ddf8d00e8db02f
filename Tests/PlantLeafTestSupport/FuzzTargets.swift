import PlantLeafCommandLine
import PlantLeafCore
import PlantLeafCamera
import PlantLeafBench
import PlantLeafServe
import PlantLeafSupport

/// One entry point that untrusted bytes reach, as the fuzzer drives it: `run` must return for
/// any input (a trap, a sanitizer report or a failed invariant is a bug), and `seeds` are the
/// small valid inputs the fuzzer starts from. The regression tests replay saved crash inputs
/// through the same `run`. To add a target, append one to `FuzzTargets.all`.
public struct FuzzTarget: Sendable {
    public let name: String
    public let summary: String
    public let run: @Sendable ([UInt8]) -> Void
    public let seeds: @Sendable () -> [(name: String, bytes: [UInt8])]
}

public enum FuzzTargets {
    public static let all: [FuzzTarget] = [imageDecoder, labels, modelFile, cameraFrames, benchReport, commandLine, serveRequest, readingRecord, journalRows, lessonsRows]

    public static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }

    /// Fuzzed images may claim at most this many pixels (256 x 256): enough for every decode path
    /// and every DCT scale, small enough that one input decodes in well under a millisecond.
    /// Larger claims take the same refusal path the default limit does.
    static let fuzzPixelLimit = 1 << 16

    public static let imageDecoder = FuzzTarget(
        name: "image-decoder",
        summary: "ImageDecoder.decode (format detection, libpng, libjpeg-turbo, DCT scaling, EXIF orientation), Resampler.resize, EXIFOrientation.read",
        run: { bytes in
            // A small minimum size makes even tiny JPEGs take the 1/2 .. 1/8 DCT-scaled paths.
            let decoder = ImageDecoder(pixelLimit: fuzzPixelLimit, minimumSize: (8, 8))
            if let image = try? decoder.decode(bytes) {
                precondition(image.width > 0 && image.height > 0, "decoded an empty image")
                // What the classifier does next; odd shapes (1 x 1000, 1000 x 1) reach both resize directions.
                _ = Resampler.resize(image, width: 24, height: 24)
            }
            _ = EXIFOrientation.read(fromAPP1: bytes)
        },
        seeds: imageSeeds)

    public static let labels = FuzzTarget(
        name: "labels",
        summary: "Labels(parsing:) and Labels.displayName on UTF-8 text",
        run: { bytes in
            guard let text = String(validating: bytes, as: UTF8.self) else { return }
            for name in Labels(parsing: text).names {
                precondition(!name.isEmpty && !name.hasPrefix("#") && !name.contains("\n"), "label file parser kept \(name.debugDescription)")
                let shown = Labels.displayName(name)
                precondition(!shown.unicodeScalars.contains(where: TerminalText.isUnsafe), "display name \(shown.debugDescription) reaches a terminal raw")
            }
        },
        seeds: {
            [("plantvillage-style", Array("# PlantVillage classes\nApple___Apple_scab\nTomato___healthy\n".utf8)),
             ("crlf-bom-blank", Array("\u{FEFF}first\r\n\r\n  second \t\r\n#third\r\n".utf8)),
             ("imagenet-style", Array("background\ntench, Tinca tinca\ngreat white shark\n".utf8)),
             ("underscores", Array("Corn_(maize)___Common_rust_\n___\n_\n".utf8))]
        })

    public static let modelFile = FuzzTarget(
        name: "model-file",
        summary: "ModelFile.check: size, TFL3 identifier and the flatbuffer structure LiteRT follows",
        run: { bytes in
            bytes.withUnsafeBytes { contents in
                _ = try? ModelFile.check(contents: contents, path: "fuzz.tflite")
            }
        },
        seeds: {
            let model = TestModels.addition()
            return [("addition", model), ("addition-truncated", Array(model.prefix(model.count / 2))),
                    ("identifier-only", Array(model.prefix(32)))]
        })

    public static let cameraFrames = FuzzTarget(
        name: "camera-frames",
        summary: "FrameConverter.convert: YUYV, NV12, RGB24 and MJPEG buffers of any length, cropped and resized to 24x24",
        run: { bytes in
            guard let (converter, frame) = cameraFrame(bytes) else { return }
            if let image = try? converter.convert(frame) {
                precondition(image.width == 24 && image.height == 24, "converted to \(image.width)x\(image.height)")
            }
        },
        seeds: {
            var generator = SeedBytes()
            let picture = TestImages.quadrants(width: 40, height: 30)
            // Header bytes: format index (yuyv, mjpeg, nv12, rgb24), (width / 2) - 1, (height / 2) - 1, padding | crop.
            return [("yuyv-40x30", [0, 19, 14, 0] + generator.next(40 * 2 * 30)),
                    ("nv12-40x30-padded", [2, 19, 14, 0x84] + generator.next(44 * 30 * 3 / 2)),
                    ("rgb24-40x30", [3, 19, 14, 0] + picture.pixels),
                    ("mjpeg-40x30", [1, 19, 14, 0x80] + TestImages.jpeg(picture.pixels, width: 40, height: 30))]
        })

    public static let benchReport = FuzzTarget(
        name: "bench-report",
        summary: "StoredBenchReport.decode (bench compare's JSON reader and its checks), then BenchComparison.render of it against itself",
        run: { bytes in
            guard let report = try? StoredBenchReport.decode(bytes, path: "fuzz.json") else { return }
            var text = BenchComparison.render([("a.json", report), ("b.json", report)])
            // Nothing the terminal would act on: the report's strings are shown escaped.
            precondition(!text.unicodeScalars.contains { $0 != "\n" && TerminalText.isUnsafe($0) }, "rendered a control character: \(text)")
            // Only the numbers are checked: the report's own strings (a stage called "inf;ke",
            // a board called "nano") are printed as they are, control characters escaped. The
            // longest go first, so that taking out a short one ("ab") cannot break up a longer
            // one that holds it ("infMutableC;ke") and leave its "inf" behind.
            let machine = report.machine, model = report.model
            let strings = [report.plantleafVersion, machine.architecture, machine.cpuModel, machine.board, model.path, model.sha256]
                + report.results.flatMap(\.stages.keys)
            for string in strings.sorted(by: { $0.count > $1.count }) where !string.isEmpty {
                text = text.replacing(TerminalText.neutralised(string), with: "")
            }
            precondition(!text.contains("inf") && !text.contains("nan"), "rendered a non-finite number: \(text)")
        },
        seeds: {
            [("two-stages", Array(benchReportSeed(threads: "1", median: "2.5").utf8)),
             ("four-threads", Array(benchReportSeed(threads: "4", median: "0.75").utf8)),
             ("fractional-threads", Array(benchReportSeed(threads: "1.5", median: "2.5").utf8)),
             ("cut-short", Array(benchReportSeed(threads: "1", median: "2.5").utf8.prefix(90))),
             // Found by the fuzzer: a stage named "inf;ke" is a name, not an infinite number.
             ("stage-named-inf", Array(benchReportSeed(threads: "1", median: "2.5").replacing("\"invoke\"", with: "\"inf;ke\"").utf8)),
             // Found by the fuzzer: a stage name holding the model's digest ("ab").
             ("stage-name-holds-digest", Array(benchReportSeed(threads: "1", median: "2.5").replacing("\"invoke\"", with: "\"infMutableC;ke\"").utf8))]
        })

    public static let commandLine = FuzzTarget(
        name: "command-line",
        summary: "ClassifyOptions, CameraCommandOptions, BenchOptions and ServeOptions .parse (the Arguments parser, every numeric range): "
            + "first byte picks the subcommand, NUL separates the arguments",
        run: { bytes in
            guard let (command, arguments) = commandLine(bytes) else { return }
            // What parsing accepted must be inside the documented ranges.
            switch command {
            case 0:
                guard let options = try? ClassifyOptions.parse(arguments), !options.help else { return }
                precondition(ModelOptions.classesPerResult.contains(options.model.topK) && OptionRange.threads.contains(options.model.threads)
                    && options.jobs.map(OptionRange.jobs.contains) != false && !options.inputIndices.isEmpty, "classify accepted \(arguments)")
                precondition(options.normalization.map { $0.std > 0 && $0.std <= 1000 && abs($0.mean) <= 1000 } != false)
            case 1:
                guard let options = try? CameraCommandOptions.parse(arguments), !options.help else { return }
                let size = options.session.request.size
                precondition(CameraMonitorOptions.frameWidths.contains(size.width) && size.width % 2 == 0
                    && CameraMonitorOptions.frameHeights.contains(size.height) && OptionRange.threads.contains(options.model.threads)
                    && options.session.frameTimeout >= 0.1 && options.session.duration.map { $0 > 0 } != false
                    && options.session.interval.map(CameraMonitorOptions.intervals.contains) != false, "camera accepted \(arguments)")
            case 3:
                guard let options = try? ServeOptions.parse(arguments), !options.help else { return }
                precondition(ServeOptions.uploadMebibytes.contains(options.maxUploadBytes >> 20) && options.maxUploadBytes % (1 << 20) == 0
                    && ServeOptions.requestSeconds.contains(options.requestSeconds) && ModelOptions.classesPerResult.contains(options.model.topK)
                    && (options.tlsCertificateFile == nil) == (options.tlsKeyFile == nil)
                    && (options.camera == nil || arguments.contains { $0.hasPrefix("--device") || $0.hasPrefix("--input") }), "serve accepted \(arguments)")
            default:
                guard let options = try? BenchOptions.parse(arguments), !options.help else { return }
                precondition(options.comparedReports.map { $0.count >= 2 && $0.count { $0 == FileReader.standardInput } <= 1 } != false
                    && options.runs >= 1 && options.warmup >= 0
                    && !options.threadCounts.isEmpty && options.threadCounts.allSatisfy(OptionRange.threads.contains)
                    && Set(options.threadCounts).count == options.threadCounts.count, "bench accepted \(arguments)")
            }
        },
        seeds: {
            func seed(_ command: UInt8, _ arguments: [String]) -> [UInt8] { [command] + Array(arguments.joined(separator: "\0").utf8) }
            return [("classify", seed(0, ["--top-k", "5", "--threads=2", "--jobs", "3", "--format", "json", "--mean", "127.5", "--std", "127.5", "--", "-x.jpg", "-"])),
                    ("camera", seed(1, ["--size", "640x480", "--fps", "30", "--crop", "none", "--frames", "10", "--duration=2.5", "--format", "json", "--preview"])),
                    ("camera-monitor", seed(1, ["--input", "-", "--every", "500ms", "--log", "x.jsonl", "--mqtt", "mqtt://u@h/t", "--mqtt-ca", "c"])),
                    ("bench", seed(2, ["--runs", "7", "--warmup", "0", "--threads", "1,2,4", "--min-seconds", "0.5", "--synthetic"])),
                    ("bench-compare", seed(2, ["compare", "a.json", "b.json"])),
                    ("serve", seed(3, ["--listen", "[::1]:0", "--max-upload", "5", "--request-timeout", "2.5", "--jobs", "2", "--checks", "all"])),
                    ("serve-camera", seed(3, ["--input", "-", "--every", "1m", "--log", "x.jsonl", "--crop", "none", "--top-k", "5"]))]
        })

    /// Splits a command-line input: the first byte picks the subcommand (0 classify, 1 camera,
    /// 2 bench, 3 serve), the rest is its arguments separated by NUL, as the kernel passes them.
    public static func commandLine(_ bytes: [UInt8]) -> (command: UInt8, arguments: [String])? {
        guard let first = bytes.first else { return nil }
        let arguments = bytes.dropFirst().split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        return (first % 4, arguments)
    }

    /// The web service as it sees a request's head (with a token, so the token check runs), and
    /// the text serve reads besides requests: listen addresses.
    public static let serveRequest = FuzzTarget(
        name: "serve-request",
        summary: "WebService.admit on a request head (route, method, token in header or cookie, Content-Type, Content-Length): "
            + "head lines then CRLF CRLF; and ListenAddress(parsing:) on the same bytes",
        run: { bytes in
            let request = serveRequestHead(bytes)
            if let response = fuzzService.admit(request) {
                precondition((200..<600).contains(response.status), "status \(response.status)")
                precondition(response.headers.contains { $0.name == "Content-Security-Policy" }, "a response without the page's policy")
                precondition(response.status < 400 || !response.body.isEmpty, "an error without a body")
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if let address = ListenAddress(parsing: text) { precondition(ListenAddress(parsing: address.description) == address) }
        },
        seeds: {
            [("upload-head", Array("POST /api/classify\r\nContent-Type: image/jpeg\r\nContent-Length: 9999\r\nAuthorization: Bearer fuzz-token-0123456789\r\n\r\n".utf8)),
             ("cookie", Array("GET /metrics\r\nCookie: a=b; plantleaf_token_0=fuzz-token-0123456789\r\n\r\n".utf8)),
             ("traversal", Array("GET /%2e%2e/app.js/../x\r\n\r\n".utf8)),
             ("address", Array("[::1]:8080".utf8)),
             // Found by the fuzzer: inet_pton stops at a NUL, so this passed as ::1 and did not
             // read back from its own description.
             ("address-with-nul", Array("::1\0]:8080".utf8))]
        })

    /// The record every front end writes and `journal import` reads back: the JSON reader under
    /// it, then the record decoder. What decodes must encode to a line that decodes to the same
    /// line again: the encoder writes nothing its own decoder refuses, and reading keeps what was written.
    public static let readingRecord = FuzzTarget(
        name: "reading-record",
        summary: "JSONValue(parsing:) (the core's strict JSON reader: escapes, surrogate pairs, numbers, depth and size limits), "
            + "ReadingRecord(decoding:) of schema 1 and 2 and its encoder's line read back",
        run: { bytes in
            _ = try? JSONValue(parsing: bytes, maximumDepth: 16, maximumBytes: 1 << 16)
            guard let record = try? ReadingRecord(decoding: bytes) else { return }
            let line = record.json
            let again: ReadingRecord
            do {
                again = try ReadingRecord(decoding: Array(line.utf8))
            } catch {
                preconditionFailure("the encoder wrote a line its decoder refuses (\(error)): \(line)")
            }
            precondition(again.json == line, "a record changed on the way back: \(line) became \(again.json)")
        },
        seeds: readingRecordSeeds)

    /// Records as each front end writes them, a camera line of schema 1, the camera's summary,
    /// JSON with every escape, and lines cut short or nested too deep.
    public static func readingRecordSeeds() -> [(name: String, bytes: [UInt8])] {
        let top = [ScoredClass(index: 29, label: "Tomato___Early_blight", score: 0.996094), ScoredClass(index: 0, label: "Apple___Apple_scab", score: 0)]
        let classify = ReadingRecord(path: "leaf.jpg", verdict: .diagnosis, top: top,
                                     timings: ReadingRecord.Timings(read: 0.054, prepare: 2.28, invoke: 11.631, postprocess: 0.044))
        var notUTF8 = classify
        notUTF8.path = #"caf\xe9.jpg"#
        notUTF8.pathHex = "636166e92e6a7067"
        let camera = ReadingRecord(frame: 3, time: "2026-12-03T18:40:01.280+01:00", verdict: .noLeaf, top: top, ageMilliseconds: 41.75,
                                   timings: ReadingRecord.Timings(prepare: 28.493, invoke: 12.693), captureFramesPerSecond: 4.71,
                                   inferenceFramesPerSecond: 4.59, dropped: 0, saved: "frames/frame-3-Tomato___Early_blight.jpg")
        let schemaOne = #"{"frame": 72, "time": "2026-12-02T00:58:41.310+00:00", "verdict": "diagnosis", "top": [{"index": 37, "label": "Tomato___healthy", "score": 0.996094}], "#
            + #""age_ms": 1102.42, "prepare_ms": 30.649, "invoke_ms": 1071.021, "capture_fps": 55.88, "inference_fps": 0.9, "dropped": 7}"#
        let escapes = #"{"schema": 2, "verdict": "uncertain", "top": [{"index": 1, "label": "\"\\\/\b\f\n\r\t\u00e9\ud83c\udf3f\u0000", "score": -1.5e-3}], "#
            + #""timing_ms": {"prepare": 0, "invoke": 1E2}, "extra": [true, false, null, {}, []]}"#
        let summary = #"{"summary": {"time": "2026-12-02T00:58:44.020+00:00", "captured": 200, "classified": 3, "verdicts": {"diagnosis": 3, "uncertain": 0}}}"#
        return [("classify", Array(classify.json.utf8)), ("classify-not-utf8", Array(notUTF8.json.utf8)), ("camera", Array(camera.json.utf8)),
                ("camera-schema-1", Array(schemaOne.utf8)), ("escapes", Array(escapes.utf8)), ("summary", Array(summary.utf8)),
                ("cut-short", Array(camera.json.utf8.prefix(60))), ("deep", Array((String(repeating: "[", count: 20) + "]").utf8))]
    }

    /// A service with no model instances: admit never reaches them.
    public static let fuzzService = try! WebService(workers: InferenceWorkers([]), token: AccessToken(token: "fuzz-token-0123456789"), bodyLimit: 1 << 20,
                                        feed: nil, log: { _ in })

    /// "METHOD PATH" then "Name: value" lines, up to a blank line.
    public static func serveRequestHead(_ bytes: [UInt8]) -> HTTPRequest {
        let text = String(decoding: bytes, as: UTF8.self)
        let head = text.split(separator: "\r\n\r\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let first = (lines.first ?? "").split(separator: " ", maxSplits: 1)
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = parts[0].lowercased()
            if HTTPRequest.keptHeaders.contains(name) { headers[name] = String(parts[1].drop { $0 == " " }) }
        }
        return HTTPRequest(method: first.first.map(String.init) ?? "", path: first.count > 1 ? String(first[1]) : "", headers: headers)
    }

    /// A bench report as `plantleaf bench --json` writes it, cut down to what compare reads.
    public static func benchReportSeed(threads: String, median: String) -> String {
        """
        {"schema_version": \(BenchReport.schemaVersion), "plantleaf_version": "0.1.0",
         "machine": {"architecture": "x86_64", "cpu_model": "cpu", "board": "board", "cores": 2},
         "model": {"path": "m.tflite", "sha256": "ab"},
         "results": [{"threads": \(threads), "images_per_second": 100,
                      "stages": {"prepare": {"median_ms": 1, "p99_ms": 1.5}, "invoke": {"median_ms": \(median), "p99_ms": 3}}}]}
        """
    }

    /// Splits a camera-frames input: its first 4 bytes choose what the driver would report
    /// (format, even frame size, line padding, crop), the rest is the buffer it filled, of any length.
    public static func cameraFrame(_ bytes: [UInt8]) -> (FrameConverter, [UInt8])? {
        guard bytes.count >= 4 else { return nil }
        let format = FramePixelFormat.allCases[Int(bytes[0]) % FramePixelFormat.allCases.count]
        let size = FrameSize(width: 2 * (1 + Int(bytes[1]) % 64), height: 2 * (1 + Int(bytes[2]) % 64))
        let bytesPerPixel = [FramePixelFormat.yuyv: 2, .nv12: 1, .rgb24: 3, .mjpeg: 0][format]!
        let padding = format == .mjpeg ? 0 : Int(bytes[3] & 0x7F) % 16
        let stream = StreamFormat(format: format, size: size, bytesPerLine: size.width * bytesPerPixel + padding)
        let crop = CropMode.allCases[Int(bytes[3] >> 7) % CropMode.allCases.count]
        return (FrameConverter(stream: stream, crop: crop, outputSize: FrameSize(width: 24, height: 24)), Array(bytes.dropFirst(4)))
    }

    /// PNGs of every colour type and bit depth libpng reads, JPEGs of every kind the decoder
    /// handles (with EXIF orientations), and bare EXIF payloads.
    public static func imageSeeds() -> [(name: String, bytes: [UInt8])] {
        var seeds: [(name: String, bytes: [UInt8])] = []
        let (width, height) = (5, 4)
        var generator = SeedBytes()
        // (colour type, channels, bit depths): gray, RGB, palette, gray+alpha, RGBA.
        for (colorType, channels, depths) in [(0, 1, [1, 2, 4, 8, 16]), (2, 3, [8, 16]), (3, 1, [1, 2, 4, 8]), (4, 2, [8, 16]), (6, 4, [8, 16])] {
            for depth in depths {
                let rowBytes = (width * channels * depth + 7) / 8
                let rows = generator.next(rowBytes * height)
                let palette = colorType == 3 ? generator.next(3 << depth) : []
                seeds.append(("png-type\(colorType)-\(depth)bit",
                              TestImages.png(rows, width: width, height: height, colorType: colorType, bitDepth: depth, palette: palette)))
            }
        }
        seeds.append(("png-interlaced", TestImages.png(generator.next(width * 3 * height), width: width, height: height,
                                                       colorType: 2, bitDepth: 8, interlaced: true)))
        seeds.append(("png-palette-trns", TestImages.png(generator.next(width * height), width: width, height: height, colorType: 3,
                                                         bitDepth: 8, palette: generator.next(768), transparency: [0, 128, 255])))
        seeds.append(("png-rgb-trns", TestImages.png(generator.next(width * 3 * height), width: width, height: height,
                                                     colorType: 2, bitDepth: 8, transparency: [10, 20, 30])))

        let image = TestImages.quadrants(width: 24, height: 16)
        seeds.append(("jpeg-baseline", TestImages.jpeg(image.pixels, width: image.width, height: image.height)))
        seeds.append(("jpeg-progressive", TestImages.jpeg(image.pixels, width: image.width, height: image.height, progressive: true)))
        seeds.append(("jpeg-gray", TestImages.jpeg(generator.next(24 * 16), width: 24, height: 16, components: 1)))
        seeds.append(("jpeg-cmyk", TestImages.jpeg(generator.next(24 * 16 * 4), width: 24, height: 16, components: 4)))
        for orientation in [3, 6, 8] {
            for bigEndian in [false, true] {
                let exif = TestImages.exif(orientation: orientation, bigEndian: bigEndian)
                seeds.append(("jpeg-exif-\(orientation)-\(bigEndian ? "mm" : "ii")",
                              TestImages.jpeg(image.pixels, width: image.width, height: image.height, quality: 60, exif: exif)))
                seeds.append(("exif-\(orientation)-\(bigEndian ? "mm" : "ii")", exif))
            }
        }
        return seeds
    }
}

/// Deterministic filler bytes (xorshift), so the seed set is the same on every run.
struct SeedBytes {
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    mutating func next(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }
}
