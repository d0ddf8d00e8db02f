/// The parser behind `JSONValue(parsing:)`: recursive descent over the bytes, one value, with
/// the nesting depth counted so that the recursion stays within `maximumDepth`.
struct JSONReader {
    private let bytes: [UInt8]
    private let maximumDepth: Int
    private var position = 0
    private var depth = 0

    private init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// The one value of `bytes`, with whitespace around it and nothing else.
    static func read(_ bytes: [UInt8], maximumDepth: Int, maximumBytes: Int) throws(JSONReadError) -> JSONValue {
        guard bytes.count <= maximumBytes else { throw JSONReadError(.tooLarge(limit: maximumBytes), offset: maximumBytes) }
        var reader = JSONReader(bytes: bytes, maximumDepth: maximumDepth)
        reader.skipWhitespace()
        let value = try reader.value()
        reader.skipWhitespace()
        guard reader.position == bytes.count else { throw JSONReadError(.trailingBytes, offset: reader.position) }
        return value
    }

    private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")

    private mutating func value() throws(JSONReadError) -> JSONValue {
        guard position < bytes.count else { throw JSONReadError(.unexpectedEnd, offset: position) }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case JSONReader.quote: return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        case let byte: throw JSONReadError(.unexpectedByte(byte), offset: position)
        }
    }

    private mutating func object() throws(JSONReadError) -> JSONValue {
        try enter()
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if !take(UInt8(ascii: "}")) {
            repeat {
                skipWhitespace()
                let keyOffset = position
                guard position < bytes.count, bytes[position] == JSONReader.quote else { throw unexpected() }
                let key = try string()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
                let member: JSONValue
                do { member = try value() } catch { throw error.inside(key: key) }
                guard members.updateValue(member, forKey: key) == nil else {
                    throw JSONReadError(.repeatedKey(key), offset: keyOffset, location: key)
                }
                skipWhitespace()
            } while take(UInt8(ascii: ","))
            try expect(UInt8(ascii: "}"))
        }
        depth -= 1
        return .object(members)
    }

    private mutating func array() throws(JSONReadError) -> JSONValue {
        try enter()
        var elements: [JSONValue] = []
        skipWhitespace()
        if !take(UInt8(ascii: "]")) {
            repeat {
                skipWhitespace()
                do { elements.append(try value()) } catch { throw error.inside(index: elements.count) }
                skipWhitespace()
            } while take(UInt8(ascii: ","))
            try expect(UInt8(ascii: "]"))
        }
        depth -= 1
        return .array(elements)
    }

    /// Steps over the opening bracket, one level deeper.
    private mutating func enter() throws(JSONReadError) {
        guard depth < maximumDepth else { throw JSONReadError(.tooDeep(limit: maximumDepth), offset: position) }
        depth += 1
        position += 1
    }

    /// A string from its opening quote. Runs without escapes are taken as they are, checked as
    /// UTF-8 unless they are ASCII (nearly every run PlantLeaf writes, and the cheap case); a
    /// string without any escape is one such run.
    private mutating func string() throws(JSONReadError) -> String {
        position += 1
        var runStart = position
        var runIsASCII = true
        var unescaped: [UInt8] = []
        while true {
            guard position < bytes.count else { throw JSONReadError(.unexpectedEnd, offset: position) }
            let byte = bytes[position]
            if byte == JSONReader.quote || byte == JSONReader.backslash {
                let run = bytes[runStart..<position]
                guard runIsASCII || String(validating: run, as: UTF8.self) != nil else { throw JSONReadError(.invalidUTF8, offset: runStart) }
                if byte == JSONReader.quote {
                    position += 1
                    // Every escape adds a byte: with none, the run is the whole string.
                    if unescaped.isEmpty { return String(decoding: run, as: UTF8.self) }
                    return String(decoding: unescaped + run, as: UTF8.self)
                }
                unescaped += run
                try escape(into: &unescaped)
                runStart = position
                runIsASCII = true
            } else if byte < 0x20 {
                throw JSONReadError(.controlCharacter, offset: position)
            } else {
                runIsASCII = runIsASCII && byte < 0x80
                position += 1
            }
        }
    }

    /// One escape, from its backslash, appended to `text` as UTF-8.
    private mutating func escape(into text: inout [UInt8]) throws(JSONReadError) {
        let start = position
        guard position + 1 < bytes.count else { throw JSONReadError(.unexpectedEnd, offset: bytes.count) }
        let letter = bytes[position + 1]
        position += 2
        switch letter {
        case JSONReader.quote, JSONReader.backslash, UInt8(ascii: "/"): text.append(letter)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
            var value = try hexUnit(escapeStart: start)
            if (0xD800...0xDBFF).contains(value) {
                // A character beyond U+FFFF is written as two escapes, high half then low half.
                guard position + 1 < bytes.count, bytes[position] == JSONReader.backslash, bytes[position + 1] == UInt8(ascii: "u") else {
                    throw JSONReadError(.unpairedSurrogate, offset: start)
                }
                position += 2
                let low = try hexUnit(escapeStart: position - 2)
                guard (0xDC00...0xDFFF).contains(low) else { throw JSONReadError(.unpairedSurrogate, offset: start) }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(value) {
                throw JSONReadError(.unpairedSurrogate, offset: start)
            }
            // Not a surrogate, so a scalar.
            UTF8.encode(Unicode.Scalar(value)!) { text.append($0) }
        default:
            throw JSONReadError(.invalidEscape, offset: start)
        }
    }

    /// The four hex digits after \u.
    private mutating func hexUnit(escapeStart: Int) throws(JSONReadError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw JSONReadError(.unexpectedEnd, offset: bytes.count) }
        var value: UInt32 = 0
        for byte in bytes[position..<position + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONReadError(.invalidEscape, offset: escapeStart)
            }
            value = value << 4 | UInt32(digit)
        }
        position += 4
        return value
    }

    /// -? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?, checked here; the Double is the
    /// standard library's reading of that text.
    private mutating func number() throws(JSONReadError) -> Double {
        let start = position
        take(UInt8(ascii: "-"))
        guard position < bytes.count, isDigit(bytes[position]) else { throw JSONReadError(.invalidNumber, offset: start) }
        // A leading zero stands alone: "01" is not a number (the 1 is then unexpected).
        if bytes[position] == UInt8(ascii: "0") { position += 1 } else { skipDigits() }
        if take(UInt8(ascii: ".")) {
            guard skipDigits() > 0 else { throw JSONReadError(.invalidNumber, offset: start) }
        }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { take(UInt8(ascii: "-")) }
            guard skipDigits() > 0 else { throw JSONReadError(.invalidNumber, offset: start) }
        }
        guard let value = Double(String(decoding: bytes[start..<position], as: UTF8.self)), value.isFinite else {
            throw JSONReadError(.numberOutOfRange, offset: start)
        }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// Steps over digits; how many.
    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = position
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        return position - start
    }

    private mutating func literal(_ word: StaticString) throws(JSONReadError) {
        for expected in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
            guard take(expected) else { throw unexpected() }
        }
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// Steps over `byte` when it is next; whether it was.
    @discardableResult
    private mutating func take(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func expect(_ byte: UInt8) throws(JSONReadError) {
        guard take(byte) else { throw unexpected() }
    }

    /// The error for the byte at `position` when it is not what the grammar allows there.
    private func unexpected() -> JSONReadError {
        position < bytes.count ? JSONReadError(.unexpectedByte(bytes[position]), offset: position) : JSONReadError(.unexpectedEnd, offset: position)
    }
}
