/// The values the SQLite fuzz targets (journal-rows, lessons-rows) write into a real file's
/// columns, read from the fuzzer's input: a kind byte, then the value's bytes.
struct FuzzedSQL {
    private var input: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) {
        input = bytes[...]
    }

    mutating func next() -> UInt8? { input.popFirst() }

    /// The SQL literal of the value kind `kind % 7` picks: NULL, one of `extremes`, any 64-bit
    /// integer, any double (infinities as 9e999, NaN as NULL), one of `reals`, text of any
    /// bytes (invalid UTF-8 too), or a blob of any length up to 47 bytes.
    mutating func value(kind: UInt8, extremes: [String], reals: [String]) -> String {
        switch kind % 7 {
        case 0: return "NULL"
        case 1: return extremes[Int(next() ?? 0) % extremes.count]
        case 2: return String(Int64(bitPattern: bits()))
        case 3:
            let number = Double(bitPattern: bits())
            return number.isFinite ? "\(number)" : number.isNaN ? "NULL" : number > 0 ? "9e999" : "-9e999"
        case 4: return reals[Int(next() ?? 0) % reals.count]
        default:
            let count = Int(next() ?? 0) % 48
            let content = input.prefix(count).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
            input = input.dropFirst(count)
            return kind % 7 == 5 ? "CAST(x'\(content)' AS TEXT)" : "x'\(content)'"
        }
    }

    /// The next eight bytes, big-endian (fewer where the input ends).
    private mutating func bits() -> UInt64 {
        let bits = input.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        input = input.dropFirst(8)
        return bits
    }
}
