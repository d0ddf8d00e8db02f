import PlantLeafSupport

/// One member of a reading record, declared once in `ReadingRecord.fields` (or, for each scored
/// class, in `ReadingRecord.classFields`): its JSON key, type, decimals, whether every record has
/// it, and where each other form puts it. Every form is derived from these tables: the record's
/// JSON line and its decoder, classify's CSV, the journal's columns, insert and row decoder, the
/// journal's CSV and the MQTT attributes. A new member (where an answer came from, say) is its
/// property on `ReadingRecord` and one line here, with the next free place in each form that
/// carries it; a journal column also needs the migration that adds it (`JournalSchema`), as a
/// journal's tables are SQL of their own. `ReadingFieldTests` walks every form against the tables.
public struct RecordField<Subject>: Sendable {
    public enum Kind: Sendable, Equatable {
        /// A whole number within the range.
        case integer(ClosedRange<Int>)
        /// A number written with at most this many decimals; null when not finite.
        case real(decimals: Int)
        case text
        /// The model's classes, best first ("top"), each with `ReadingRecord.classFields`.
        case classes
        /// Words for people, derived from other members in the catalogue's language ("advice",
        /// "display"): written, never read back nor stored.
        case words
    }

    /// A member's value; `.null` is written as JSON null (a member that is there, saying "none").
    public enum Value: Sendable, Equatable {
        case null, integer(Int), real(Double), text(String), classes([ScoredClass])

        public var integer: Int? { if case .integer(let value) = self { value } else { nil } }
        /// A real, or a whole number read where a real may be.
        public var real: Double? {
            switch self {
            case .real(let value): value
            case .integer(let value): Double(value)
            default: nil
            }
        }
        public var text: String? { if case .text(let value) = self { value } else { nil } }
    }

    /// The object within the record a member sits in: the record itself, or "timing_ms".
    public enum Group: String, Sendable {
        case record = ""
        case timings = "timing_ms"
    }

    public let key: String
    public let group: Group
    public let kind: Kind
    /// Every record has it (the decoder refuses a line without it; its journal column is NOT NULL).
    public let isRequired: Bool
    /// The journal's column; nil for what the journal does not keep.
    public let sqlColumn: String?
    /// The CSV forms' column name.
    public let csvColumn: String?
    public let places: RecordPlaces
    /// The CSV cell's text where it is not the value's (a file's name, escaped as people read it).
    public let csvText: (@Sendable (Subject) -> String)?
    /// The member's value in a subject, in a catalogue's language; nil when it has none.
    public let value: @Sendable (Subject, Catalogue) -> Value?
    /// Sets the member from a value of its kind (a real may be null: not finite); false when the
    /// value is none a record holds there (a verdict that is none).
    public let set: @Sendable (inout Subject, Value) -> Bool

    public init(_ key: String, in group: Group = .record, _ kind: Kind, required: Bool = false, sql: String? = nil, csv: String? = nil,
                _ places: RecordPlaces = .none, csvText: (@Sendable (Subject) -> String)? = nil,
                value: @escaping @Sendable (Subject, Catalogue) -> Value?, set: @escaping @Sendable (inout Subject, Value) -> Bool = { _, _ in true }) {
        self.key = key
        self.group = group
        self.kind = kind
        self.isRequired = required
        self.sqlColumn = sql
        self.csvColumn = csv
        self.places = places
        self.csvText = csvText
        self.value = value
        self.set = set
    }

    /// The member's JSON name with its group: "timing_ms.prepare".
    public var path: String { group == .record ? key : group.rawValue + "." + key }

    /// How many decimals a real is written with; 0 for the other kinds.
    public var decimals: Int { if case .real(let decimals) = kind { decimals } else { 0 } }
}

/// Where each flat form puts a record's member: its column's (or attribute's) place in that
/// form's order, which keeps each form's columns in the order its readers have always had them.
public struct RecordPlaces: Sendable, Equatable {
    /// classify --format csv (one row per class).
    public var classifyCSV: Int?
    /// plantleaf journal export --format csv (a row per reading, with its best class).
    public var journalCSV: Int?
    /// The MQTT state sensor's attributes.
    public var mqtt: Int?

    public static let none = RecordPlaces()

    public init(classifyCSV: Int? = nil, journalCSV: Int? = nil, mqtt: Int? = nil) {
        self.classifyCSV = classifyCSV
        self.journalCSV = journalCSV
        self.mqtt = mqtt
    }
}

public typealias ReadingField = RecordField<ReadingRecord>
public typealias ClassField = RecordField<ScoredClass>

extension RecordField.Value {
    /// `value` for an optional: nil stays nil.
    static func real(_ value: Double?) -> Self? { value.map { .real($0) } }
    static func integer(_ value: Int?) -> Self? { value.map { .integer($0) } }
    static func text(_ value: String?) -> Self? { value.map { .text($0) } }
}

extension ReadingRecord {
    /// The record's members in the order its JSON line has them.
    ///
    /// The path is classify's only: the journal has no column for it, so an upload's file name
    /// stays the grower's. The time is the journal's own instant (its time and UTC offset
    /// columns), not a column of the record.
    public static let fields: [ReadingField] = [
        // A name that is not UTF-8 is already escaped, its bytes in path_hex.
        .init("path", .text, csv: "path", .init(classifyCSV: 0), csvText: { r in r.pathHex == nil ? PathName(r.path ?? "").escaped : r.path ?? "" }, value: { r, _ in .text(r.path) }, set: { r, v in r.path = v.text; return true }),
        .init("path_hex", .text, value: { r, _ in .text(r.pathHex) }, set: { r, v in r.pathHex = v.text; return true }),
        .init("frame", .integer(0...Int(UInt32.max)), sql: "frame", value: { r, _ in .integer(r.frame) }, set: { r, v in r.frame = v.integer; return true }),
        .init("time", .text, csv: "time", .init(journalCSV: 1, mqtt: 6), value: { r, _ in .text(r.time) }, set: { r, v in r.time = v.text; return true }),
        .init("verdict", .text, required: true, sql: "verdict", csv: "verdict", .init(classifyCSV: 1, journalCSV: 3, mqtt: 1),
              value: { r, _ in .text(r.verdict.rawValue) }, set: { r, v in v.text.flatMap(Verdict.init(rawValue:)).map { r.verdict = $0 } != nil }),
        .init("reason", .text, sql: "reason", csv: "reason", .init(classifyCSV: 10, journalCSV: 4, mqtt: 2),
              value: { r, _ in .text(r.reason?.rawValue) }, set: { r, v in r.reason = v.text.flatMap(VerdictReason.init(rawValue:)); return r.reason != nil }),
        .init("advice", .words, .init(mqtt: 3), value: { r, catalogue in .text(r.advice(in: catalogue)) }),
        // Where the answer came from: every record says it ("model" for lines written before lessons).
        .init("answer_from", .text, sql: "answer_from", csv: "answer_from", .init(classifyCSV: 14, journalCSV: 10, mqtt: 7),
              value: { r, _ in .text(r.answerFrom.rawValue) }, set: { r, v in v.text.flatMap(AnswerSource.init(rawValue:)).map { r.answerFrom = $0 } != nil }),
        .init("taught", .text, sql: "taught", csv: "taught", .init(classifyCSV: 15, journalCSV: 11, mqtt: 8),
              value: { r, _ in .text(r.taught) }, set: { r, v in r.taught = v.text; return true }),
        // Only beside "taught": how close the picture is to the taught class.
        .init("taught_similarity", .real(decimals: 4), sql: "taught_similarity",
              value: { r, _ in r.taught == nil ? nil : .real(r.taughtSimilarity ?? .nan) }, set: { r, v in r.taughtSimilarity = v.real; return true }),
        .init("top", .classes, required: true, sql: "top", value: { r, _ in .classes(r.top) },
              set: { r, v in guard case .classes(let top) = v else { return false }; r.top = top; return true }),
        // Null, with leaf_likeness_skipped saying why, when the check could not run.
        .init("leaf_likeness", .real(decimals: 4), sql: "leaf_likeness", csv: "leaf_likeness", .init(classifyCSV: 11, journalCSV: 7, mqtt: 4),
              value: { r, _ in
                  switch r.secondOpinion {
                  case .notRun: nil
                  case .leafLikeness(let likeness): .real(likeness)
                  case .skipped: .null
                  }
              },
              set: { r, v in
                  if case .skipped = r.secondOpinion {} else if let likeness = v.real { r.secondOpinion = .leafLikeness(likeness) }
                  return true
              }),
        .init("leaf_likeness_skipped", .text, sql: "check_skipped", .init(mqtt: 5),
              value: { r, _ in if case .skipped(let why) = r.secondOpinion { .text(why) } else { nil } },
              set: { r, v in v.text.map { r.secondOpinion = .skipped(reason: $0) }; return true }),
        .init("age_ms", .real(decimals: 2), sql: "age_ms", value: { r, _ in .real(r.ageMilliseconds) }, set: { r, v in r.ageMilliseconds = v.real; return true }),
        .init("read", in: .timings, .real(decimals: 3), sql: "read_ms", csv: "read_ms", .init(classifyCSV: 6),
              value: { r, _ in .real(r.timings.read) }, set: { r, v in r.timings.read = v.real; return true }),
        .init("prepare", in: .timings, .real(decimals: 3), required: true, sql: "prepare_ms", csv: "prepare_ms", .init(classifyCSV: 7, journalCSV: 8),
              value: { r, _ in .real(r.timings.prepare) }, set: { r, v in r.timings.prepare = v.real ?? .nan; return true }),
        .init("invoke", in: .timings, .real(decimals: 3), required: true, sql: "invoke_ms", csv: "invoke_ms", .init(classifyCSV: 8, journalCSV: 9),
              value: { r, _ in .real(r.timings.invoke) }, set: { r, v in r.timings.invoke = v.real ?? .nan; return true }),
        .init("postprocess", in: .timings, .real(decimals: 3), sql: "postprocess_ms", csv: "postprocess_ms", .init(classifyCSV: 9),
              value: { r, _ in .real(r.timings.postprocess) }, set: { r, v in r.timings.postprocess = v.real; return true }),
        .init("generalist", in: .timings, .real(decimals: 3), sql: "generalist_ms", csv: "generalist_ms", .init(classifyCSV: 12),
              value: { r, _ in .real(r.timings.generalist) }, set: { r, v in r.timings.generalist = v.real; return true }),
        .init("capture_fps", .real(decimals: 2), sql: "capture_fps",
              value: { r, _ in .real(r.captureFramesPerSecond) }, set: { r, v in r.captureFramesPerSecond = v.real; return true }),
        .init("inference_fps", .real(decimals: 2), sql: "inference_fps",
              value: { r, _ in .real(r.inferenceFramesPerSecond) }, set: { r, v in r.inferenceFramesPerSecond = v.real; return true }),
        .init("dropped", .integer(0...Int.max), sql: "dropped", value: { r, _ in .integer(r.dropped) }, set: { r, v in r.dropped = v.integer; return true }),
        .init("saved", .text, sql: "saved", value: { r, _ in .text(r.saved) }, set: { r, v in r.saved = v.text; return true }),
    ]

    /// Each scored class's members, in the order "top" has them. The journal stores the classes
    /// packed (see `JournalSchema`); the CSV forms have the class's columns.
    public static let classFields: [ClassField] = [
        .init("index", .integer(0...Int.max), required: true, csv: "index", .init(classifyCSV: 3),
              value: { c, _ in .integer(c.index) }, set: { c, v in c.index = v.integer ?? 0; return true }),
        .init("label", .text, required: true, csv: "label", .init(classifyCSV: 4, journalCSV: 5),
              value: { c, _ in .text(c.label) }, set: { c, v in c.label = v.text ?? ""; return true }),
        .init("score", .real(decimals: 6), required: true, csv: "score", .init(classifyCSV: 5, journalCSV: 6),
              value: { c, _ in .real(c.score) }, set: { c, v in c.score = v.real ?? .nan; return true }),
        .init("display", .words, csv: "display", .init(classifyCSV: 13), value: { c, catalogue in .text(catalogue.className(c.label)) }),
    ]
}

/// A column of a CSV form: a member of the record, a member of a scored class, or one of the
/// form's own (classify's rank, the journal's row number and source).
package enum ReadingCSVColumn: Sendable {
    case member(ReadingField)
    case classMember(ClassField)
    case own(String)

    package var name: String {
        switch self {
        case .member(let field): field.csvColumn ?? field.key
        case .classMember(let field): field.csvColumn ?? field.key
        case .own(let name): name
        }
    }
}

/// The CSV forms, derived from `ReadingRecord.fields` and `classFields`: numbers with the
/// decimals their JSON has (empty when not finite or missing), text RFC 4180-quoted with control
/// and bidirectional formatting characters written \xHH.
package enum ReadingCSV {
    /// The columns of the form whose places `place` picks, with the form's `own` columns at their places.
    package static func columns(placedBy place: (RecordPlaces) -> Int?, own: [(name: String, place: Int)]) -> [ReadingCSVColumn] {
        var placed: [(place: Int, column: ReadingCSVColumn)] = own.map { ($0.place, .own($0.name)) }
        for field in ReadingRecord.fields { if let at = place(field.places) { placed.append((at, .member(field))) } }
        for field in ReadingRecord.classFields { if let at = place(field.places) { placed.append((at, .classMember(field))) } }
        return placed.sorted { $0.place < $1.place }.map(\.column)
    }

    package static func header(_ columns: [ReadingCSVColumn]) -> String { columns.map(\.name).joined(separator: ",") }

    /// One row: `record`'s members, `scored`'s (the row's class; empty cells without one), and
    /// `own`, the form's own cells in the order its own columns are.
    package static func row(_ columns: [ReadingCSVColumn], record: ReadingRecord, scored: ScoredClass?, own: [String], catalogue: Catalogue) -> String {
        var ownCells = own.makeIterator()
        return columns.map { column in
            switch column {
            case .member(let field): cell(field, of: record, catalogue)
            case .classMember(let field): scored.map { cell(field, of: $0, catalogue) } ?? ""
            case .own: ownCells.next() ?? ""
            }
        }.joined(separator: ",")
    }

    private static func cell<Subject>(_ field: RecordField<Subject>, of subject: Subject, _ catalogue: Catalogue) -> String {
        if let csvText = field.csvText { return ClassificationOutput.csvField(csvText(subject)) }
        switch field.value(subject, catalogue) {
        case nil, .null?, .classes?: return ""
        case .integer(let number)?: return String(number)
        case .real(let number)?: return DecimalText.shortest(number, decimals: field.decimals) ?? ""
        case .text(let text)?: return ClassificationOutput.csvField(TerminalText.neutralised(text))
        }
    }
}
