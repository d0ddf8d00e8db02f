import PlantLeafCommandLine
import PlantLeafCore
import PlantLeafCamera
import PlantLeafBench
import PlantLeafServe
import PlantLeafTestSupport
import Testing

/// The fuzz seeds are valid inputs: if one stopped decoding, the fuzzer would start from
/// nothing. They also cover every PNG colour type and bit depth and the EXIF orientations.
@Suite struct FuzzSeedTests {
    @Test func everyImageSeedDecodesToItsSize() {
        let decoder = ImageDecoder()
        for seed in FuzzTargets.imageSeeds() where !seed.name.hasPrefix("exif-") {
            let image: RGBImage
            do {
                image = try decoder.decode(seed.bytes)
            } catch {
                Issue.record("\(seed.name): \(error)")
                continue
            }
            let expected = seed.name.hasPrefix("png") ? (5, 4)
                : (seed.name.hasPrefix("jpeg-exif-6") || seed.name.hasPrefix("jpeg-exif-8")) ? (16, 24) : (24, 16)
            #expect(image.width == expected.0 && image.height == expected.1, "\(seed.name)")
        }
    }

    @Test func exifSeedsCarryTheirOrientation() {
        for orientation in [3, 6, 8] {
            for bigEndian in [false, true] {
                let payload = TestImages.exif(orientation: orientation, bigEndian: bigEndian)
                #expect(EXIFOrientation.read(fromAPP1: payload).rawValue == orientation)
            }
        }
    }

    @Test func labelSeedsParse() {
        let parsed = FuzzTargets.labels.seeds().map { Labels(parsing: String(decoding: $0.bytes, as: UTF8.self)).names }
        #expect(parsed[1] == ["first", "second"])
        #expect(parsed[0] == ["Apple___Apple_scab", "Tomato___healthy"])
    }

    @Test func cameraSeedsConvertToTheModelInput() throws {
        for seed in FuzzTargets.cameraFrames.seeds() {
            let (converter, frame) = try #require(FuzzTargets.cameraFrame(seed.bytes))
            let image = try converter.convert(frame)
            #expect(image.width == 24 && image.height == 24, "\(seed.name)")
        }
    }

    /// Three seeds are reports compare reads, two are refused (so both paths are where fuzzing starts).
    @Test func benchReportSeedsDecodeOrAreRefused() {
        let decoded = FuzzTargets.benchReport.seeds().map { (try? StoredBenchReport.decode($0.bytes, path: $0.name)) != nil }
        #expect(decoded == [true, true, false, false, true, true])
    }

    /// Each command-line seed parses, so fuzzing starts from accepted command lines.
    @Test func commandLineSeedsParse() throws {
        let seeds = FuzzTargets.commandLine.seeds().compactMap { FuzzTargets.commandLine($0.bytes) }
        #expect(try ClassifyOptions.parse(seeds[0].arguments).inputIndices == [12, 13])
        let camera = try CameraCommandOptions.parse(seeds[1].arguments)
        #expect(camera.session.frameLimit == 10 && camera.format == .json && camera.preview)
        let monitor = try CameraCommandOptions.parse(seeds[2].arguments)
        #expect(monitor.session.inputPath == "-" && monitor.session.interval == 0.5 && monitor.feed.logPath == "x.jsonl"
            && monitor.mqtt.url == "mqtt://u@h/t" && monitor.mqtt.caFile == "c")
        #expect(try BenchOptions.parse(seeds[3].arguments).threadCounts == [1, 2, 4])
        #expect(try BenchOptions.parse(seeds[4].arguments).comparedReports == ["a.json", "b.json"])
        let serve = try ServeOptions.parse(seeds[5].arguments)
        #expect(serve.listen.description == "[::1]:0" && serve.maxUploadBytes == 5 << 20 && serve.requestSeconds == 2.5 && serve.jobs == 2)
        let serveCamera = try ServeOptions.parse(seeds[6].arguments)
        #expect(serveCamera.camera?.session.inputPath == "-" && serveCamera.camera?.session.interval == 60
            && serveCamera.camera?.feed.logPath == "x.jsonl" && serveCamera.camera?.model.topK == 5)
    }

    /// The serve seeds reach the routes they are about: an upload head admitted for its body,
    /// the metrics with the token's cookie, a traversal refused.
    @Test func serveRequestSeedsReachTheirRoutes() {
        let seeds = FuzzTargets.serveRequest.seeds().map { FuzzTargets.serveRequestHead($0.bytes) }
        #expect(FuzzTargets.fuzzService.admit(seeds[0]) == nil)
        #expect(FuzzTargets.fuzzService.admit(seeds[1])?.status == 200)
        #expect(FuzzTargets.fuzzService.admit(seeds[2])?.status == 404)
    }

    /// The record seeds: the front ends' records and the schema-1 line decode, the history reads
    /// the camera's, and the others are refused each for its own reason.
    @Test func readingRecordSeedsDecodeOrAreRefused() {
        let outcomes = FuzzTargets.readingRecordSeeds().map { seed -> String in
            do throws(ReadingRecordError) {
                _ = try ReadingRecord(decoding: seed.bytes)
                return "record"
            } catch .summary {
                return "summary"
            } catch .notJSON {
                return "not JSON"
            } catch {
                return "\(error)"
            }
        }
        #expect(outcomes == ["record", "record", "record", "record", "record", "summary", "not JSON", "not JSON"])
    }

    /// Every seed passes through its target without tripping an invariant.
    @Test func targetsRunTheirSeeds() {
        for target in FuzzTargets.all {
            for seed in target.seeds() { target.run(seed.bytes) }
        }
    }
}
