@testable import PlantLeafCore
@testable import PlantLeafCamera
import PlantLeafCommandLine
import PlantLeafSupport
import Testing

/// camera's records, summary and status block, whole, from results made here.
@Suite struct CameraOutputTests {
    static func result(savedPath: String? = nil) -> CameraResult {
        var counts = CaptureCounts()
        counts.captured = 40
        counts.dropped = 2
        counts.framesPerSecond = 29.97
        return CameraResult(sequence: 17, time: "2026-12-02T05:01:02.345+01:00",
                            top: [ScoredClass(index: 2, label: "Apple___Cedar_apple_rust", score: 0.875)], verdict: .uncertain,
                            ageMilliseconds: 41.234, prepareMilliseconds: 0.7349, invokeMilliseconds: 4.4, inferenceFramesPerSecond: 14.95,
                            counts: counts, savedPath: savedPath, modelInput: nil)
    }

    static func summary(ages: [Double]) -> CameraSummary {
        var counts = CaptureCounts()
        counts.captured = 12
        return CameraSummary(counts: counts, classified: ages.count, verdicts: [.diagnosis: max(0, ages.count - 1), .noPicture: min(1, ages.count)],
                             corrupt: 1, lastCorruptFrame: .corruptJPEG(.truncated(format: .jpeg, detail: "Premature end of JPEG file")),
                             ages: ages, signal: nil, failure: nil)
    }

    /// The frame's line is its reading record, with the stages in "timing_ms" as every output has them.
    @Test func frameRecordNamesTheStagesAsEveryOutputDoes() {
        #expect(Self.result(savedPath: "frames/000017-Apple_Cedar_apple_rust.jpg").record.json
            == #"{"schema": 2, "frame": 17, "time": "2026-12-02T05:01:02.345+01:00", "verdict": "uncertain", "answer_from": "model", "top": [{"index": 2, "label": "Apple___Cedar_apple_rust", "#
            + #""score": 0.875, "display": "Apple — Cedar apple rust"}], "age_ms": 41.23, "timing_ms": {"prepare": 0.735, "invoke": 4.4}, "capture_fps": 29.97, "#
            + #""inference_fps": 14.95, "dropped": 2, "saved": "frames/000017-Apple_Cedar_apple_rust.jpg"}"#)
    }

    @Test func statusLinesLeadWithTheVerdictThenShowTheFrameAndABarPerClass() {
        #expect(CameraOutput.statusLines(Self.result(), header: "/dev/video0 (vivid)", preview: nil, catalogue: .english) == [
            "/dev/video0 (vivid)",
            "Not sure what this leaf has (uncertain): not a diagnosis",
            "",
            "2026-12-02T05:01:02.345+01:00   frame 17   age 41 ms   capture 30 fps   inference 15 fps   dropped 2",
            "  87.5% ██████████████████·· Apple — Cedar apple rust",
        ])
    }

    /// The ages' median and p99 are `LatencyStatistics`' (linear between ranks), as in bench.
    @Test func summaryUsesTheOnePercentileDefinition() {
        let summary = Self.summary(ages: [10, 20, 30, 40])
        #expect(summary.medianAge == 25)
        #expect(summary.p99Age == LatencyStatistics([10, 20, 30, 40])?.p99)
        #expect(CameraOutput.summaryLine(summary, fromStream: false, retriesDevice: true)
            == "12 frames captured, 4 classified, 0 dropped by the driver, 0 flagged bad, 1 corrupt; "
            + "verdicts: 3 diagnosis, 0 uncertain, 0 no-leaf, 1 no-picture; frame age median 25 ms, p99 39.7 ms; 0 failed attempts; last corrupt frame: MJPEG frame: truncated JPEG: Premature end of JPEG file")
        #expect(CameraOutput.summaryRecord(summary, fromStream: false, retriesDevice: false, time: "T")
            == #"{"summary": {"time": "T", "captured": 12, "classified": 4, "#
            + #""verdicts": {"diagnosis": 3, "uncertain": 0, "no-leaf": 0, "no-picture": 1}, "dropped": 0, "flagged_error": 0, "superseded": 0, "#
            + #""corrupt": 1, "age_median_ms": 25, "age_p99_ms": 39.7}}"#)
    }

    @Test func summaryOfNoFramesHasNoAges() {
        let summary = Self.summary(ages: [])
        #expect(summary.medianAge == nil)
        #expect(CameraOutput.summaryRecord(summary, fromStream: true, retriesDevice: false, time: "T").contains(#""age_median_ms": null"#))
        #expect(CameraOutput.summaryLine(summary, fromStream: true, retriesDevice: false).contains("frame age median -, p99 -"))
    }
}
