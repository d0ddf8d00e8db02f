import PlantLeafSupport

/// One reading as every front end writes it: classify's JSON lines (and its CSV rows, the record
/// flattened), the camera's lines on stdout and in its --log, the MQTT result payload, and serve's
/// /api/classify and /api/latest answers. Its members are declared once, in `fields` and
/// `classFields` (ReadingField.swift); its one encoder (`json`) and one decoder
/// (`init(decoding:)`) are derived from them, as are the CSVs, the journal's columns and the MQTT
/// attributes, so whatever one front end writes, the others read back.
///
/// Schema 2 (`schema`): one JSON object a line, its members in this order, the optional ones only
/// where they apply:
/// - "schema": 2;
/// - classify: "path", the file's name; when the name is not UTF-8, its escaped form, with the
///   exact bytes as hex in "path_hex";
/// - camera: "frame" (the driver's sequence number) and "time" (capture time, ISO 8601 local
///   time with its offset);
/// - "verdict" (`Verdict`'s names); "reason" when it is not a diagnosis (`VerdictReason`'s
///   names: the reading that decided) and "advice", what to do, in words (derived from the
///   verdict, "reason" and the best class, for a photo or for a camera's reading: never read
///   back from the line);
/// - "answer_from": "model", or "lessons" when the grower's taught class is the answer, then
///   "taught" (that class's name as the grower wrote it) and "taught_similarity" (0...1);
/// - "top" (best first: "index", "label", "score", and "display", the class's name for people);
///   "advice" and "display" are in the catalogue's language, the rest the same in every language;
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
    // The lessons' members (docs/teach.md), declared in `fields` like the others.
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

    /// Who reads this record's advice: a camera's reading (it has a frame number) is watched
    /// at a fixed camera; any other is a photo someone sent.
    public var audience: AdviceAudience { frame == nil ? .photo : .camera }

    /// What to do, in `catalogue`'s words for `audience`: the reason's advice when it is not a
    /// diagnosis; the class's (no treatment for a healthy one, the signs to check for a disease)
    /// when it is; none when the grower's lessons named the class (they know what they taught).
    public func advice(in catalogue: Catalogue) -> String? {
        if let reason { return catalogue.advice(reason, for: audience) }
        guard verdict == .diagnosis, answerFrom == .model, let best = top.first else { return nil }
        return catalogue.diagnosisAdvice(best.label, for: audience)
    }

    /// The record as its JSON line in English (schema above; no newline).
    public var json: String { json(in: .english) }

    /// The record as its JSON line, its words ("advice", "display") in `catalogue`'s language.
    /// Times have three decimals at most, the age and rates two, scores six; a number that is
    /// not finite is null.
    public func json(in catalogue: Catalogue) -> String { jsonObject(in: catalogue).text }

    /// The record as a JSON object, its members as `fields` declares them: a front end that
    /// writes more (the journal's id and source) adds its own after them.
    package func jsonObject(in catalogue: Catalogue) -> JSONObject {
        var object = JSONObject()
        object.add("schema", ReadingRecord.schema)
        for entry in ReadingRecord.jsonLayout {
            switch entry {
            case .member(let field): ReadingRecord.add(field, of: self, to: &object, catalogue)
            case .group(let group, let fields):
                var members = JSONObject()
                for field in fields { ReadingRecord.add(field, of: self, to: &members, catalogue) }
                object.add(group.rawValue, members)
            }
        }
        return object
    }

    private enum JSONEntry: Sendable {
        case member(ReadingField)
        case group(ReadingField.Group, [ReadingField])
    }

    /// `fields` as the JSON line has them: a group's members make one object, where its first member is.
    private static let jsonLayout: [JSONEntry] = {
        var layout: [JSONEntry] = []
        var groupsPlaced: Set<ReadingField.Group> = []
        for field in fields {
            if field.group == .record {
                layout.append(.member(field))
            } else if groupsPlaced.insert(field.group).inserted {
                layout.append(.group(field.group, fields.filter { $0.group == field.group }))
            }
        }
        return layout
    }()

    /// The members that have a place in the form `place` picks (the MQTT attributes), in its order.
    package func addMembers(to object: inout JSONObject, placedBy place: (RecordPlaces) -> Int?, in catalogue: Catalogue) {
        for field in ReadingRecord.fields.filter({ place($0.places) != nil }).sorted(by: { place($0.places)! < place($1.places)! }) {
            ReadingRecord.add(field, of: self, to: &object, catalogue)
        }
    }

    private static func add<Subject>(_ field: RecordField<Subject>, of subject: Subject, to object: inout JSONObject, _ catalogue: Catalogue) {
        switch field.value(subject, catalogue) {
        case nil: break
        case .null?: object.addNull(field.key)
        case .integer(let number)?: object.add(field.key, number)
        case .real(let number)?: object.add(field.key, number, decimals: field.decimals)
        case .text(let text)?: object.add(field.key, text)
        case .classes(let classes)?:
            object.add(field.key, objects: classes.map { scored in
                var item = JSONObject()
                for member in classFields { add(member, of: scored, to: &item, catalogue) }
                return item
            })
        }
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
        let schema: Int
        switch values["schema"] {
        case nil: schema = 1
        case .number(let number)? where number == number.rounded() && number >= 1 && number <= 9_007_199_254_740_992: schema = Int(number)
        case _?: throw .invalidField("schema")
        }
        guard schema <= ReadingRecord.schema else { throw .newerSchema(schema) }

        // Schema 1 had the camera's stages beside the other members, as "<stage>_ms".
        let timings = ReadingField.Group.timings.rawValue
        var record = ReadingRecord(verdict: .uncertain, top: [], timings: Timings(prepare: .nan, invoke: .nan))
        // The members every record has first: a line that is no record says what it lacks.
        for field in ReadingRecord.fields.filter(\.isRequired) + ReadingRecord.fields.filter({ !$0.isRequired }) {
            switch (field.group, values[timings]) {
            case (.record, _): try ReadingRecord.decode(field, values[field.key], name: field.key, into: &record)
            case (.timings, .object(let stages)?): try ReadingRecord.decode(field, stages[field.key], name: field.path, into: &record)
            case (.timings, nil) where schema == 1: try ReadingRecord.decode(field, values[field.key + "_ms"], name: field.key + "_ms", into: &record)
            case (.timings, nil): throw .missingField(timings)
            case (.timings, _?): throw .invalidField(timings)
            }
        }
        self = record
    }

    /// Sets `field` of `subject` from its JSON value `raw` (member `name`), if there.
    private static func decode<Subject>(_ field: RecordField<Subject>, _ raw: JSONValue?, name: String, into subject: inout Subject) throws(ReadingRecordError) {
        guard let raw else {
            if field.isRequired { throw .missingField(name) }
            return
        }
        let value: RecordField<Subject>.Value
        switch (field.kind, raw) {
        case (.words, _): return
        case (.text, .string(let text)): value = .text(text)
        case (.real, .null): value = .real(.nan)
        case (.real, .number(let number)): value = .real(number)
        // Exact as a Double (up to 2^53).
        case (.integer(let range), .number(let number)) where number == number.rounded() && abs(number) <= 9_007_199_254_740_992 && range.contains(Int(number)):
            value = .integer(Int(number))
        case (.classes, .array(let entries)):
            var classes: [ScoredClass] = []
            for (rank, entry) in entries.enumerated() {
                guard case .object(let members) = entry else { throw .invalidField("\(name)[\(rank)]") }
                var scored = ScoredClass(index: 0, label: "", score: .nan)
                for member in classFields { try decode(member, members[member.key], name: "\(name)[\(rank)].\(member.key)", into: &scored) }
                classes.append(scored)
            }
            value = .classes(classes)
        default: throw .invalidField(name)
        }
        guard field.set(&subject, value) else { throw .invalidField(name) }
    }
}
