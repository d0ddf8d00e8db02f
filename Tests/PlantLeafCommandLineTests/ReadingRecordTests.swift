import PlantLeafCore
@testable import PlantLeafCamera
import PlantLeafMQTT
import PlantLeafSupport
import Testing

/// The one record every front end writes: what each writes reads back as the same record, old
/// camera lines still read, and what is no record is refused with the reason.
@Suite struct ReadingRecordTests {
    /// Numbers already at the decimals the record keeps, so that a record reads back equal.
    static let classification = Classification(
        top: [ScoredClass(index: 1, label: "Apple___Black_rot", score: 0.9961), ScoredClass(index: 3, label: "Apple___healthy", score: 0.0039)],
        verdict: .diagnosis, timings: StageTimings(read: 0.041, prepare: 0.812, invoke: 4.2, postprocess: 0.004))

    static func cameraResult(savedPath: String?) -> CameraResult {
        var counts = CaptureCounts()
        counts.dropped = 2
        counts.framesPerSecond = 29.97
        return CameraResult(sequence: 17, time: "2026-12-02T05:01:02.345+01:00",
                            top: [ScoredClass(index: 2, label: "Apple___Cedar_apple_rust", score: 0.875)], verdict: .uncertain,
                            ageMilliseconds: 41.23, prepareMilliseconds: 0.735, invokeMilliseconds: 4.4, inferenceFramesPerSecond: 14.95,
                            counts: counts, savedPath: savedPath, modelInput: nil)
    }

    static func decode(_ text: String) throws(ReadingRecordError) -> ReadingRecord {
        try ReadingRecord(decoding: Array(text.utf8))
    }

    /// The error decoding `text` gives; nil when it is a record.
    static func failure(_ text: String) -> ReadingRecordError? {
        do {
            _ = try decode(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func classifyRecordsReadBack() throws {
        let record = ReadingRecord(Self.classification, path: PathName("leaf.jpg"))
        #expect(record.path == "leaf.jpg" && record.pathHex == nil && record.frame == nil)
        #expect(try Self.decode(record.json) == record)
        // classify's JSON line is this very record.
        #expect(ClassificationOutput.record(Self.classification, path: PathName("leaf.jpg"), format: .json, catalogue: .english) == record.json)
    }

    @Test func classifyRecordOfANameThatIsNotUTF8ReadsBackWithItsBytes() throws {
        let record = ReadingRecord(Self.classification, path: PathName(bytes: [0x6C, 0xFF, 0x2E, 0x6A, 0x70, 0x67]))
        #expect(record.path == #"l\xff.jpg"# && record.pathHex == "6cff2e6a7067")
        #expect(record.json.hasPrefix(#"{"schema": 2, "path": "l\\xff.jpg", "path_hex": "6cff2e6a7067", "verdict": "diagnosis", "#))
        #expect(try Self.decode(record.json) == record)
    }

    @Test func cameraRecordsReadBackWithAndWithoutTheSavedFrame() throws {
        for saved in [nil, "frames/frame-17-Apple___Cedar_apple_rust.jpg"] {
            let record = Self.cameraResult(savedPath: saved).record
            #expect(record.saved == saved && record.frame == 17 && record.dropped == 2)
            #expect(record.timings == ReadingRecord.Timings(prepare: 0.735, invoke: 4.4))
            #expect(record.json.contains(#""saved""#) == (saved != nil))
            #expect(try Self.decode(record.json) == record)
        }
    }

    /// The result topic carries the camera's line, the same record.
    @Test func mqttPayloadIsTheRecord() throws {
        let record = Self.cameraResult(savedPath: nil).record
        let reading = MQTTReading(record: record)
        #expect(reading.resultPayload(in: .english) == Array(record.json.utf8))
        #expect(try ReadingRecord(decoding: reading.resultPayload(in: .english)) == record)
        #expect(reading.verdict == .uncertain && reading.top == record.top)
    }

    /// Labels are exact in JSON, whatever they hold.
    @Test func labelsOfAnyTextReadBack() throws {
        var record = ReadingRecord(Self.classification, path: PathName("a \"quoted\"\\ name\n.jpg"))
        record.top[0].label = "Odd \"leaf\" \\ name\t\u{1B}[31m \u{7F}\u{85} \u{202E}🌿"
        #expect(try Self.decode(record.json) == record)
    }

    /// A camera line of schema 1 had its stages beside the age; it reads as the same reading,
    /// and is written again in schema 2.
    @Test func schemaOneCameraLinesStillRead() throws {
        let line = #"{"frame": 72, "time": "2026-12-02T00:58:41.310+00:00", "verdict": "diagnosis", "top": [{"index": 37, "label": "Tomato___healthy", "score": 0.996094, "display": "Tomato — healthy"}, {"index": 0, "label": "Apple___Apple_scab", "score": 0, "display": "Apple — Apple scab"}], "age_ms": 1102.42, "prepare_ms": 30.649, "invoke_ms": 1071.021, "capture_fps": 55.88, "inference_fps": 0.9, "dropped": 7}"#
        let record = try Self.decode(line)
        #expect(record == ReadingRecord(frame: 72, time: "2026-12-02T00:58:41.310+00:00", verdict: .diagnosis,
                                        top: [ScoredClass(index: 37, label: "Tomato___healthy", score: 0.996094),
                                              ScoredClass(index: 0, label: "Apple___Apple_scab", score: 0)],
                                        ageMilliseconds: 1102.42, timings: ReadingRecord.Timings(prepare: 30.649, invoke: 1071.021),
                                        captureFramesPerSecond: 55.88, inferenceFramesPerSecond: 0.9, dropped: 7))
        #expect(record.json == #"{"schema": 2, "frame": 72, "time": "2026-12-02T00:58:41.310+00:00", "verdict": "diagnosis", "advice": "The camera sees a healthy leaf: nothing to treat. It keeps watching; walk past the plants yourself in a few days too.", "answer_from": "model", "top": [{"index": 37, "label": "Tomato___healthy", "score": 0.996094, "display": "Tomato — healthy"}, {"index": 0, "label": "Apple___Apple_scab", "score": 0, "display": "Apple — Apple scab"}], "age_ms": 1102.42, "timing_ms": {"prepare": 30.649, "invoke": 1071.021}, "capture_fps": 55.88, "inference_fps": 0.9, "dropped": 7}"#)
        // classify's lines of schema 1 already had "timing_ms".
        let classify = try Self.decode(#"{"path": "leaf.jpg", "verdict": "uncertain", "top": [], "timing_ms": {"read": 1, "prepare": 2, "invoke": 3, "postprocess": 4}}"#)
        #expect(classify.timings == ReadingRecord.Timings(read: 1, prepare: 2, invoke: 3, postprocess: 4))
    }

    @Test func membersALaterSchemaMayAddArePassedOver() throws {
        let record = try Self.decode(#"{"schema": 2, "verdict": "no-leaf", "top": [], "timing_ms": {"prepare": 1, "invoke": 2, "mirror": 3}, "crop": {"x": 1}}"#)
        #expect(record == ReadingRecord(verdict: .noLeaf, top: [], timings: ReadingRecord.Timings(prepare: 1, invoke: 2)))
    }

    /// The encoder writes null for a score that is not finite (a float model's NaN); it reads
    /// back as NaN and is written as null again.
    @Test func aNullNumberReadsAsNaN() throws {
        let record = try Self.decode(#"{"schema": 2, "verdict": "uncertain", "top": [{"index": 0, "label": "a", "score": null}], "timing_ms": {"prepare": 1, "invoke": 2}}"#)
        #expect(record.top[0].score.isNaN)
        #expect(record.json.contains(#""score": null"#))
    }

    @Test func linesThatAreNoRecordsSayWhy() {
        #expect(Self.failure(#"{"summary": {"time": "T", "captured": 12, "verdicts": {"diagnosis": 3}}}"#) == .summary)
        #expect(Self.failure(#"{"schema": 2, "path": "bad.jpg", "error": "empty file (0 bytes)"}"#) == .missingField("verdict"))
        #expect(Self.failure(#"{"schema": 3, "verdict": "diagnosis"}"#) == .newerSchema(3))
        #expect(Self.failure(#"{"schema": "2", "verdict": "diagnosis"}"#) == .invalidField("schema"))
        #expect(Self.failure(#"{"schema": 0, "verdict": "diagnosis"}"#) == .invalidField("schema"))
        // Schema 2 has its stages in "timing_ms" only.
        #expect(Self.failure(#"{"schema": 2, "verdict": "diagnosis", "top": [], "prepare_ms": 1, "invoke_ms": 2}"#) == .missingField("timing_ms"))
        #expect(Self.failure(#"{"verdict": "diagnosis", "top": [], "prepare_ms": 1}"#) == .missingField("invoke_ms"))
        #expect(Self.failure(#"{"schema": 2, "verdict": "diagnosis", "top": [], "timing_ms": [1, 2]}"#) == .invalidField("timing_ms"))
        #expect(Self.failure(#"{"schema": 2, "verdict": "diagnosis", "top": [], "timing_ms": {"prepare": 1}}"#) == .missingField("timing_ms.invoke"))
        #expect(Self.failure(#"{"schema": 2, "verdict": "diagnosis", "top": [], "timing_ms": {"prepare": "1", "invoke": 2}}"#) == .invalidField("timing_ms.prepare"))
        let timing = #""timing_ms": {"prepare": 1, "invoke": 2}"#
        #expect(Self.failure(#"{"schema": 2, "verdict": "maybe", "top": [], "# + timing + "}") == .invalidField("verdict"))
        #expect(Self.failure(#"{"schema": 2, "verdict": "diagnosis", "# + timing + "}") == .missingField("top"))
        #expect(Self.failure(#"{"schema": 2, "verdict": "diagnosis", "top": {}, "# + timing + "}") == .invalidField("top"))
        #expect(Self.failure(#"{"schema": 2, "verdict": "diagnosis", "top": [1], "# + timing + "}") == .invalidField("top[0]"))
        #expect(Self.failure(#"{"schema": 2, "verdict": "diagnosis", "top": [{"index": 1, "label": "a", "score": 1}, {"index": 2, "score": 1}], "# + timing + "}")
            == .missingField("top[1].label"))
        #expect(Self.failure(#"{"schema": 2, "verdict": "diagnosis", "top": [{"index": 1.5, "label": "a", "score": 1}], "# + timing + "}")
            == .invalidField("top[0].index"))
        #expect(Self.failure(#"{"schema": 2, "frame": -1, "verdict": "diagnosis", "top": [], "# + timing + "}") == .invalidField("frame"))
        #expect(Self.failure(#"{"schema": 2, "frame": 4294967296, "verdict": "diagnosis", "top": [], "# + timing + "}") == .invalidField("frame"))
        #expect(Self.failure(#"{"schema": 2, "time": 12, "verdict": "diagnosis", "top": [], "# + timing + "}") == .invalidField("time"))
        #expect(Self.failure(#"{"schema": 2, "dropped": true, "verdict": "diagnosis", "top": [], "# + timing + "}") == .invalidField("dropped"))
        #expect(Self.failure("[1, 2]") == .notAnObject)
        #expect(Self.failure(#"{"schema": 2, "frame": 9, "time": "2026-12-0"#) == .notJSON(JSONReadError(.unexpectedEnd, offset: 44, location: "time")))
        #expect(ReadingRecordError.notJSON(JSONReadError(.unexpectedEnd, offset: 44, location: "time")).description
            == "not a reading record: not JSON at byte 44: the text ends inside a value")
    }
}
