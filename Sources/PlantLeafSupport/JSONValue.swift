/// A JSON value as `JSONValue(parsing:)` reads it, for the readers of PlantLeaf's own records
/// (support and the core use no Foundation, so no JSONSerialization). An object's members are
/// looked up by name, so their order is not kept; each key is there once, as the reader refuses
/// a key written twice (other readers would take the first or the last, and disagree on what the
/// text says).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// Every number as a Double, as JavaScript reads it: integers past 2^53 lose their last digits.
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Reads `bytes` as one JSON value (RFC 8259), strictly: UTF-8 only, no comments, no
    /// trailing commas, no NaN or infinities, nothing after the value but whitespace. Arrays and
    /// objects may nest `maximumDepth` deep, and the text may be `maximumBytes` long, so that a
    /// hostile line costs a bounded stack and time.
    ///
    /// - Throws: `JSONReadError`, with the byte offset of what is wrong.
    public init(parsing bytes: [UInt8], maximumDepth: Int = 64, maximumBytes: Int = 1 << 24) throws(JSONReadError) {
        self = try JSONReader.read(bytes, maximumDepth: maximumDepth, maximumBytes: maximumBytes)
    }

    /// The member `key` of an object; nil when there is none or this is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }
}
