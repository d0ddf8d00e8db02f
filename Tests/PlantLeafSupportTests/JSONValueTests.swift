import PlantLeafSupport
import Testing

/// PlantLeafSupport's JSON reader: the values it reads, every escape, and each way bytes are
/// refused, with where.
@Suite struct JSONValueTests {
    static func parse(_ text: String, maximumDepth: Int = 64, maximumBytes: Int = 1 << 24) throws(JSONReadError) -> JSONValue {
        try JSONValue(parsing: Array(text.utf8), maximumDepth: maximumDepth, maximumBytes: maximumBytes)
    }

    /// The error reading `bytes` gives; nil when they are read.
    static func failure(_ bytes: [UInt8], maximumDepth: Int = 64, maximumBytes: Int = 1 << 24) -> JSONReadError? {
        do {
            _ = try JSONValue(parsing: bytes, maximumDepth: maximumDepth, maximumBytes: maximumBytes)
            return nil
        } catch {
            return error
        }
    }

    static func failure(_ text: String) -> JSONReadError? { failure(Array(text.utf8)) }

    @Test func readsEveryKindOfValue() throws {
        let value = try Self.parse(#" {"a": [1, -0.5, 2.5e3, 1E-2, -0], "b": {"c": true, "d": false, "e": null}, "f": "g", "h": []} "#)
        #expect(value == .object(["a": .array([.number(1), .number(-0.5), .number(2500), .number(0.01), .number(0)]),
                                  "b": .object(["c": .bool(true), "d": .bool(false), "e": .null]), "f": .string("g"), "h": .array([])]))
        #expect(value["f"] == .string("g") && value["x"] == nil && JSONValue.string("s")["f"] == nil)
        #expect(try Self.parse("\t\r\n 7 \n") == .number(7))
        #expect(try Self.parse(#""""#) == .string(""))
    }

    @Test func readsEveryEscape() throws {
        #expect(try Self.parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{8}\u{C}\n\r\t"))
        #expect(try Self.parse(#""caf\u00e9 \u00E9 \u0000 \u20ac""#) == .string("café é \u{0} €"))
        // Escapes among plain text, and plain UTF-8 kept as it is.
        #expect(try Self.parse(#""a\nb — 🌿\tc""#) == .string("a\nb — 🌿\tc"))
    }

    /// A character beyond U+FFFF is two \u escapes, high half then low half; either half alone
    /// is no character.
    @Test func readsSurrogatePairsAndRefusesHalves() throws {
        #expect(try Self.parse(#""\ud83c\udf3f leaf \uD83D\uDE00""#) == .string("🌿 leaf 😀"))
        #expect(Self.failure(#""x\ud83c""#) == JSONReadError(.unpairedSurrogate, offset: 2))
        #expect(Self.failure(#""\ud83c\u0041""#) == JSONReadError(.unpairedSurrogate, offset: 1))
        #expect(Self.failure(#""\ud83c\n""#) == JSONReadError(.unpairedSurrogate, offset: 1))
        #expect(Self.failure(#""\udf3f\ud83c""#) == JSONReadError(.unpairedSurrogate, offset: 1))
        #expect(Self.failure(#""\ud83c\ud83c""#) == JSONReadError(.unpairedSurrogate, offset: 1))
    }

    @Test func refusesBadStrings() {
        #expect(Self.failure(#""\x41""#) == JSONReadError(.invalidEscape, offset: 1))
        #expect(Self.failure(#""\u00g1""#) == JSONReadError(.invalidEscape, offset: 1))
        #expect(Self.failure(#""\u00""#) == JSONReadError(.unexpectedEnd, offset: 6))
        #expect(Self.failure(#""\"#) == JSONReadError(.unexpectedEnd, offset: 2))
        #expect(Self.failure(#""open"#) == JSONReadError(.unexpectedEnd, offset: 5))
        #expect(Self.failure("\"tab\there\"") == JSONReadError(.controlCharacter, offset: 4))
        #expect(Self.failure([0x22, 0x61, 0xFF, 0x22]) == JSONReadError(.invalidUTF8, offset: 1))
        // A lone continuation byte after an escape, and a sequence cut by one.
        #expect(Self.failure([0x22, 0x5C, 0x6E, 0x80, 0x22]) == JSONReadError(.invalidUTF8, offset: 3))
        #expect(Self.failure([0x22, 0xE2, 0x82, 0x5C, 0x6E, 0x22]) == JSONReadError(.invalidUTF8, offset: 1))
        // A surrogate written as UTF-8 (CESU) is not UTF-8 either.
        #expect(Self.failure([0x22, 0xED, 0xA0, 0xBC, 0x22]) == JSONReadError(.invalidUTF8, offset: 1))
    }

    @Test func refusesWhatIsNotANumber() {
        #expect(Self.failure("[01]") == JSONReadError(.unexpectedByte(UInt8(ascii: "1")), offset: 2))
        #expect(Self.failure("01") == JSONReadError(.trailingBytes, offset: 1))
        #expect(Self.failure("1.") == JSONReadError(.invalidNumber, offset: 0))
        #expect(Self.failure("-") == JSONReadError(.invalidNumber, offset: 0))
        #expect(Self.failure("[1e]") == JSONReadError(.invalidNumber, offset: 1, location: "[0]"))
        #expect(Self.failure("1e+") == JSONReadError(.invalidNumber, offset: 0))
        #expect(Self.failure(".5") == JSONReadError(.unexpectedByte(UInt8(ascii: ".")), offset: 0))
        #expect(Self.failure("+1") == JSONReadError(.unexpectedByte(UInt8(ascii: "+")), offset: 0))
        #expect(Self.failure("NaN") == JSONReadError(.unexpectedByte(UInt8(ascii: "N")), offset: 0))
        #expect(Self.failure("[1e999]") == JSONReadError(.numberOutOfRange, offset: 1, location: "[0]"))
        #expect(Self.failure("-1e400") == JSONReadError(.numberOutOfRange, offset: 0))
    }

    @Test func refusesBadStructure() {
        #expect(Self.failure("") == JSONReadError(.unexpectedEnd, offset: 0))
        #expect(Self.failure("  ") == JSONReadError(.unexpectedEnd, offset: 2))
        #expect(Self.failure(#"{"a": 1,}"#) == JSONReadError(.unexpectedByte(UInt8(ascii: "}")), offset: 8))
        #expect(Self.failure("[1,]") == JSONReadError(.unexpectedByte(UInt8(ascii: "]")), offset: 3, location: "[1]"))
        #expect(Self.failure("[1 2]") == JSONReadError(.unexpectedByte(UInt8(ascii: "2")), offset: 3))
        #expect(Self.failure(#"{"a" 1}"#) == JSONReadError(.unexpectedByte(UInt8(ascii: "1")), offset: 5))
        #expect(Self.failure("{'a': 1}") == JSONReadError(.unexpectedByte(UInt8(ascii: "'")), offset: 1))
        #expect(Self.failure("{1: 1}") == JSONReadError(.unexpectedByte(UInt8(ascii: "1")), offset: 1))
        #expect(Self.failure(#"{"a": 1"#) == JSONReadError(.unexpectedEnd, offset: 7))
        #expect(Self.failure("[") == JSONReadError(.unexpectedEnd, offset: 1, location: "[0]"))
        #expect(Self.failure("{} x") == JSONReadError(.trailingBytes, offset: 3))
        #expect(Self.failure("{}{}") == JSONReadError(.trailingBytes, offset: 2))
        #expect(Self.failure("tru") == JSONReadError(.unexpectedEnd, offset: 3))
        #expect(Self.failure("nulL") == JSONReadError(.unexpectedByte(UInt8(ascii: "L")), offset: 3))
        #expect(Self.failure("[true false]") == JSONReadError(.unexpectedByte(UInt8(ascii: "f")), offset: 6))
        // A byte-order mark is not whitespace.
        #expect(Self.failure([0xEF, 0xBB, 0xBF, 0x31]) == JSONReadError(.unexpectedByte(0xEF), offset: 0))
    }

    /// Readers elsewhere take either the first or the last of a key written twice: refused.
    @Test func refusesAKeyWrittenTwice() {
        #expect(Self.failure(#"{"verdict": "diagnosis", "top": [], "verdict": "uncertain"}"#)
            == JSONReadError(.repeatedKey("verdict"), offset: 36, location: "verdict"))
        // Deeper down, the location is the repeated key's path, as a reader names a field.
        #expect(Self.failure(#"{"results": [{"threads": 1}, {"threads": 1, "threads": 2}]}"#)?.location == "results[1].threads")
        // The same key in two objects is two keys.
        #expect(Self.failure(#"[{"a": 1}, {"a": 2}]"#) == nil)
    }

    @Test func nestingAndLengthAreBounded() {
        let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(Self.failure(deepest) == nil)
        #expect(Self.failure("[" + deepest + "]") == JSONReadError(.tooDeep(limit: 64), offset: 64, location: String(repeating: "[0]", count: 64)))
        #expect(Self.failure(Array(#"{"a": {"b": [1]}}"#.utf8), maximumDepth: 3) == nil)
        #expect(Self.failure(Array(#"{"a": {"b": [1]}}"#.utf8), maximumDepth: 2) == JSONReadError(.tooDeep(limit: 2), offset: 12, location: "a.b"))
        // Far deeper than any stack could recurse: refused at the limit, not a crash.
        #expect(Self.failure(String(repeating: "{\"a\":", count: 100_000)) == JSONReadError(.tooDeep(limit: 64), offset: 64 * 5,
                                                                                                      location: Array(repeating: "a", count: 64).joined(separator: ".")))
        #expect(Self.failure(Array("[1, 2]".utf8), maximumBytes: 6) == nil)
        #expect(Self.failure(Array("[1, 2] ".utf8), maximumBytes: 6) == JSONReadError(.tooLarge(limit: 6), offset: 6))
    }

    @Test func errorsSayWhatAndWhere() {
        #expect(JSONReadError(.unexpectedByte(UInt8(ascii: "}")), offset: 8).description == "not JSON at byte 8: unexpected '}'")
        #expect(JSONReadError(.unexpectedByte(0x01), offset: 0).description == "not JSON at byte 0: unexpected byte 0x01")
        #expect(JSONReadError(.repeatedKey("a\"b"), offset: 3).description == #"not JSON at byte 3: key "a\"b" written twice in one object"#)
    }
}
