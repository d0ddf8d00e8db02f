import PlantLeafSupport

/// Why a line is not a reading record `ReadingRecord(decoding:)` can read.
public enum ReadingRecordError: PlantLeafError {
    /// Not JSON, or over the reader's limits: a line cut short, damaged bytes.
    case notJSON(JSONReadError)
    /// JSON, but not an object.
    case notAnObject
    /// The camera's run summary, {"summary": {...}}: a line of its output, but not a reading.
    case summary
    /// Written by a newer PlantLeaf, in a schema after `ReadingRecord.schema`.
    case newerSchema(Int)
    /// A member every record has is not there ("timing_ms.prepare", "top[0].label").
    case missingField(String)
    /// A member of the wrong type, or with a value no record has (a verdict that is none).
    case invalidField(String)

    public var message: String {
        switch self {
        case .notJSON: return "not a reading record"
        case .notAnObject: return "not a reading record: not a JSON object"
        case .summary: return "a run's summary, not a reading"
        case .newerSchema(let schema): return "a reading record of schema \(schema), newer than this build reads (\(ReadingRecord.schema))"
        case .missingField(let name): return "not a reading record: no \(name)"
        case .invalidField(let name): return "not a reading record: \(name) is not what a record holds there"
        }
    }

    public var details: String? {
        guard case .notJSON(let error) = self else { return nil }
        return error.description
    }
}
