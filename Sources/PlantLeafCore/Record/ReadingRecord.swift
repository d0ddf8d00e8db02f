/// One reading as every front end writes it: classify's JSON lines (and its CSV rows, the record
/// flattened), the camera's lines on stdout and in its --log, the MQTT result payload, and serve's
/// /api/classify and /api/latest answers. It has one encoder (`json`) and one decoder
/// (`init(decoding:)`), so whatever one front end writes, the others read back.
///
/// Schema 2 (`schema`): one JSON object a line, its members in this order, the optional ones only
/// where they apply:
/// - "schema": 2;
/// - classify: "path", the file's name; when the name is not UTF-8, its escaped form, with the
///   exact bytes as hex in "path_hex";
/// - camera: "frame" (the driver's sequence number) and "time" (capture time, ISO 8601 local
///   time with its offset);
/// - "verdict" (`Verdict`'s names); "reason" when it is not a diagnosis (`VerdictReason`'s
///   names: the reading that decided) and "advice", what to do, in words (read back from
///   "reason", not from the line); "top" (best first: "index", "label", "score", and "display",
///   the class's name for people); "advice" and "display" are in the catalogue's language, the
///   rest the same in every language;
/// - "answer_from": "model", or "lessons" when the grower's taught class is the answer, then
///   "taught" (that class's name as the grower wrote it) and "taught_similarity" (0...1);
/// - "leaf_likeness" when the generalist check runs: how like leaf photos the generalist model
///   finds the picture, 0...1; null, with "leaf_likeness_skipped" saying why, when its model or
///   leaf reference could not be used;
/// - camera: "age_ms", capture to scores;
/// - "timing_ms": milliseconds per stage, as `StageTimings` names them: "read" (classify),
///   "prepare", "invoke", "postprocess" (classify), "generalist" (when its check runs);
/// - camera: "capture_fps", "inference_fps", "dropped", and "saved" when the frame was saved.
///
/// Schema 1, before records said their schema, had the camera's stages as "prepare_ms" and
/// "invoke_ms" beside "age_ms". The decoder reads those lines too, as users' logs hold them;
/// the encoder writes schema 2 only.
public struct ReadingRecord: Sendable, Equatable {
    /// The schema this build writes, the "schema" member of every record.
    public static let schema = 2
    /// The longest line the decoder reads: a record with a thousand classes of long labels fits.
    public static let maximumBytes = 1 << 20

    /// Milliseconds per stage; camera records have no read (frames are in memory) and no postprocess.
    public struct Timings: Sendable, Equatable {
        public var read: Double?
        public var prepare: Double
        public var invoke: Double
        public var postprocess: Double?
        /// The generalist model's run, when its check runs.
        public var generalist: Double?

        public init(read: Double? = nil, prepare: Double, invoke: Double, postprocess: Double? = nil, generalist: Double? = nil) {
            self.read = read
            self.prepare = prepare
            self.invoke = invoke
            self.postprocess = postprocess
            self.generalist = generalist
        }

        /// Every stage of `stages`, as classify times them; the generalist's when `ran`.
        public init(_ stages: StageTimings, generalistRan: Bool) {
            self.init(read: stages.read, prepare: stages.prepare, invoke: stages.invoke, postprocess: stages.postprocess,
                      generalist: generalistRan ? stages.generalist : nil)
        }
    }

    public var path: String?
    public var pathHex: String?
    public var frame: Int?
    public var time: String?
    public var verdict: Verdict
    public var reason: VerdictReason?
    /// The model's scores, whatever the verdict.
    public var top: [ScoredClass]
    /// The generalist check's reading (`.notRun` writes nothing).
    public var secondOpinion: SecondOpinionReading
    public var ageMilliseconds: Double?
    public var timings: Timings
    public var captureFramesPerSecond: Double?
    public var inferenceFramesPerSecond: Double?
    public var dropped: Int?
    public var saved: String?
    // Lessons' fields (docs/teach.md), kept together for the declared field table.
    /// Where the answer came from; with `.lessons`, `taught` names it.
    public var answerFrom: AnswerSource = .model
    public var taught: String?
    public var taughtSimilarity: Double?

    public init(path: String? = nil, pathHex: String? = nil, frame: Int? = nil, time: String? = nil, verdict: Verdict,
                reason: VerdictReason? = nil, top: [ScoredClass], secondOpinion: SecondOpinionReading = .notRun, ageMilliseconds: Double? = nil, timings: Timings, captureFramesPerSecond: Double? = nil, inferenceFramesPerSecond: Double? = nil,
                dropped: Int? = nil, saved: String? = nil) {
        self.path = path
        self.pathHex = pathHex
        self.frame = frame
        self.time = time
        self.verdict = verdict
        self.reason = reason
        self.top = top
        self.secondOpinion = secondOpinion
        self.ageMilliseconds = ageMilliseconds
        self.timings = timings
        self.captureFramesPerSecond = captureFramesPerSecond
        self.inferenceFramesPerSecond = inferenceFramesPerSecond
        self.dropped = dropped
        self.saved = saved
    }

    /// classify's record of `result`, the classification of the file `path`.
    public init(_ result: Classification, path: PathName) {
        let name = ReadingRecord.pathMembers(path)
        self.init(path: name.path, pathHex: name.hex, verdict: result.verdict, reason: result.reason, top: result.top,
                  secondOpinion: result.secondOpinion, timings: Timings(result.timings, generalistRan: result.secondOpinion.leafLikeness != nil))
        setAnswerSource(of: result)
    }

    /// The record with the lessons' fields of `result`, when there is one.
    public func withAnswerSource(of result: Classification?) -> ReadingRecord {
        guard let result else { return self }
        var record = self
        record.setAnswerSource(of: result)
        return record
    }

    /// The lessons' fields from a classification.
    public mutating func setAnswerSource(of result: Classification) {
        answerFrom = result.source
        if result.source == .lessons, let taught = result.taught {
            self.taught = taught.className
            taughtSimilarity = taught.similarity
        }
    }

    /// "path" and "path_hex" for a file's name: the name itself when it is UTF-8 (JSON escapes
    /// what needs it); otherwise its escaped form, with the exact bytes in hex.
    package static func pathMembers(_ path: PathName) -> (path: String, hex: String?) {
        guard let text = path.string else { return (path.escaped, path.hex) }
        return (text, nil)
    }

    /// The record as its JSON line in English (schema above; no newline).
    public var json: String { json(in: .english) }

    /// The record as its JSON line, its words ("advice", "display") in `catalogue`'s language.
    /// Times have three decimals at most, the age and rates two, scores six; a number that is
    /// not finite is null.
    public func json(in catalogue: Catalogue) -> String {
        var object = JSONObject()
        object.add("schema", ReadingRecord.schema)
        if let path { object.add("path", path) }
        if let pathHex { object.add("path_hex", pathHex) }
        if let frame { object.add("frame", frame) }
        if let time { object.add("time", time) }
        object.add("verdict", verdict.rawValue)
        if let reason {
            object.add("reason", reason.rawValue)
            object.add("advice", catalogue.advice(reason))
        }
        object.add("answer_from", answerFrom.rawValue)
        if let taught {
            object.add("taught", taught)
            object.add("taught_similarity", taughtSimilarity ?? .nan, decimals: 4)
        }
        object.add("top", objects: top.map { entry in
            var item = entry.json
            item.add("display", catalogue.className(entry.label))
            return item
        })
        switch secondOpinion {
        case .notRun: break
        case .leafLikeness(let likeness): object.add("leaf_likeness", likeness, decimals: 4)
        case .skipped(let why):
            object.addNull("leaf_likeness")
            object.add("leaf_likeness_skipped", why)
        }
        if let ageMilliseconds { object.add("age_ms", ageMilliseconds, decimals: 2) }
        var stages = JSONObject()
        if let read = timings.read { stages.add("read", read, decimals: 3) }
        stages.add("prepare", timings.prepare, decimals: 3)
        stages.add("invoke", timings.invoke, decimals: 3)
        if let postprocess = timings.postprocess { stages.add("postprocess", postprocess, decimals: 3) }
        if let generalist = timings.generalist { stages.add("generalist", generalist, decimals: 3) }
        object.add("timing_ms", stages)
        if let captureFramesPerSecond { object.add("capture_fps", captureFramesPerSecond, decimals: 2) }
        if let inferenceFramesPerSecond { object.add("inference_fps", inferenceFramesPerSecond, decimals: 2) }
        if let dropped { object.add("dropped", dropped) }
        if let saved { object.add("saved", saved) }
        return object.text
    }

    /// Reads one line a front end wrote (without its newline): a record of schema 2, or of
    /// schema 1. Members it does not know are passed over, as a later schema may add some; a
    /// null number (what the encoder writes for one that is not finite) reads as NaN.
    ///
    /// - Throws: `ReadingRecordError`: `.summary` for the camera's run summary, which is a line
    ///   of its output but no reading; the other cases for lines that are not records.
    public init(decoding line: [UInt8]) throws(ReadingRecordError) {
        let value: JSONValue
        do {
            // A record nests three deep (record, "top", a class); the summary four.
            value = try JSONValue(parsing: line, maximumDepth: 8, maximumBytes: ReadingRecord.maximumBytes)
        } catch {
            throw .notJSON(error)
        }
        guard case .object(let values) = value else { throw .notAnObject }
        if case .object = values["summary"], values["verdict"] == nil { throw .summary }
        let members = Members(values: values, prefix: "")

        let schema = try members.integer("schema", in: 1...Int.max) ?? 1
        guard schema <= ReadingRecord.schema else { throw .newerSchema(schema) }
        guard let verdict = Verdict(rawValue: try members.required("verdict", members.string("verdict"))) else { throw .invalidField("verdict") }
        guard case .array(let entries) = try members.required("top", values["top"]) else { throw .invalidField("top") }
        var top: [ScoredClass] = []
        for (rank, entry) in entries.enumerated() {
            guard case .object(let scored) = entry else { throw .invalidField("top[\(rank)]") }
            let item = Members(values: scored, prefix: "top[\(rank)].")
            top.append(ScoredClass(index: try item.required("index", item.integer("index", in: 0...Int.max)),
                                   label: try item.required("label", item.string("label")),
                                   score: try item.required("score", item.number("score"))))
        }

        let timings: Timings
        switch values["timing_ms"] {
        case .object(let stages)?:
            let stage = Members(values: stages, prefix: "timing_ms.")
            timings = Timings(read: try stage.number("read"), prepare: try stage.required("prepare", stage.number("prepare")),
                              invoke: try stage.required("invoke", stage.number("invoke")), postprocess: try stage.number("postprocess"),
                              generalist: try stage.number("generalist"))
        case nil where schema == 1:
            timings = Timings(prepare: try members.required("prepare_ms", members.number("prepare_ms")),
                              invoke: try members.required("invoke_ms", members.number("invoke_ms")))
        case nil:
            throw .missingField("timing_ms")
        case _?:
            throw .invalidField("timing_ms")
        }

        var reason: VerdictReason?
        if let text = try members.string("reason") {
            guard let known = VerdictReason(rawValue: text) else { throw .invalidField("reason") }
            reason = known
        }
        var secondOpinion = SecondOpinionReading.notRun
        if let skipped = try members.string("leaf_likeness_skipped") {
            secondOpinion = .skipped(reason: skipped)
        } else if let likeness = try members.number("leaf_likeness") {
            secondOpinion = .leafLikeness(likeness)
        }
        self.init(path: try members.string("path"), pathHex: try members.string("path_hex"),
                  frame: try members.integer("frame", in: 0...Int(UInt32.max)), time: try members.string("time"),
                  verdict: verdict, reason: reason, top: top, secondOpinion: secondOpinion, ageMilliseconds: try members.number("age_ms"), timings: timings,
                  captureFramesPerSecond: try members.number("capture_fps"), inferenceFramesPerSecond: try members.number("inference_fps"),
                  dropped: try members.integer("dropped", in: 0...Int.max), saved: try members.string("saved"))
        if let source = try members.string("answer_from") {
            guard let known = AnswerSource(rawValue: source) else { throw .invalidField("answer_from") }
            answerFrom = known
        }
        taught = try members.string("taught")
        taughtSimilarity = try members.number("taught_similarity")
    }

    /// An object's members as the decoder reads them: each of the type a record has there, or
    /// missing.
    private struct Members {
        let values: [String: JSONValue]
        /// Before a member's name in an error: "" at the top, "timing_ms." and "top[2]." within.
        let prefix: String

        /// `value`, member `key`'s, which a record must have.
        func required<Value>(_ key: String, _ value: Value?) throws(ReadingRecordError) -> Value {
            guard let value else { throw .missingField(prefix + key) }
            return value
        }

        func string(_ key: String) throws(ReadingRecordError) -> String? {
            switch values[key] {
            case nil: return nil
            case .string(let text): return text
            default: throw .invalidField(prefix + key)
            }
        }

        /// A number; null reads as NaN.
        func number(_ key: String) throws(ReadingRecordError) -> Double? {
            switch values[key] {
            case nil: return nil
            case .null: return .nan
            case .number(let value): return value
            default: throw .invalidField(prefix + key)
            }
        }

        /// A whole number within `range`, and exact as a Double (up to 2^53).
        func integer(_ key: String, in range: ClosedRange<Int>) throws(ReadingRecordError) -> Int? {
            switch values[key] {
            case nil: return nil
            case .number(let value) where value == value.rounded() && abs(value) <= 9_007_199_254_740_992 && range.contains(Int(value)):
                return Int(value)
            default: throw .invalidField(prefix + key)
            }
        }
    }
}
