/// Why bytes are not JSON `JSONValue(parsing:)` accepts, and where: the byte offset from the
/// start of the text.
public struct JSONReadError: PlantLeafError {
    public enum Problem: Sendable, Equatable {
        /// The text ends inside a value (a line cut short).
        case unexpectedEnd
        /// A byte no value, separator or closing bracket starts with.
        case unexpectedByte(UInt8)
        /// Something other than whitespace after the value.
        case trailingBytes
        /// A backslash not followed by one of JSON's escapes, or \u without four hex digits.
        case invalidEscape
        /// A \u escape of half a UTF-16 surrogate pair, without its other half.
        case unpairedSurrogate
        case invalidUTF8
        /// A control character written as it is inside a string, where JSON has it escaped.
        case controlCharacter
        case invalidNumber
        /// A number too large for a Double (1e999).
        case numberOutOfRange
        case repeatedKey(String)
        case tooDeep(limit: Int)
        case tooLarge(limit: Int)
    }

    public var problem: Problem
    public var offset: Int
    /// Where in the value the problem is, as a field path: `machine.board`, `results[0].threads`
    /// (empty at the top level). A repeated key's path ends with that key.
    public var location: String

    public init(_ problem: Problem, offset: Int, location: String = "") {
        self.problem = problem
        self.offset = offset
        self.location = location
    }

    /// The same error seen from the object holding it under `key`.
    func inside(key: String) -> JSONReadError {
        var outer = self
        outer.location = location.isEmpty ? key : key + (location.hasPrefix("[") ? "" : ".") + location
        return outer
    }

    /// The same error seen from the array holding it at `index`.
    func inside(index: Int) -> JSONReadError {
        var outer = self
        outer.location = "[\(index)]" + (location.isEmpty || location.hasPrefix("[") ? "" : ".") + location
        return outer
    }

    public var message: String { "not JSON at byte \(offset): \(what)" }

    private var what: String {
        switch problem {
        case .unexpectedEnd: return "the text ends inside a value"
        case .unexpectedByte(let byte) where (0x21...0x7E).contains(byte): return "unexpected '\(Character(Unicode.Scalar(byte)))'"
        case .unexpectedByte(let byte): return "unexpected byte 0x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
        case .trailingBytes: return "more text after the value"
        case .invalidEscape: return "not a JSON escape"
        case .unpairedSurrogate: return "half a UTF-16 surrogate pair"
        case .invalidUTF8: return "not UTF-8"
        case .controlCharacter: return "a control character inside a string, not escaped"
        case .invalidNumber: return "not a JSON number"
        case .numberOutOfRange: return "a number too large for a double"
        case .repeatedKey(let key): return "key \(JSONObject.quote(key)) written twice in one object"
        case .tooDeep(let limit): return "arrays and objects nested deeper than \(limit)"
        case .tooLarge(let limit): return "longer than \(limit) bytes"
        }
    }
}
