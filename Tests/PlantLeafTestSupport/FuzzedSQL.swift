import Foundation
import Synchronization

/// The values the SQLite fuzz targets (journal-rows, lessons-rows) write into a real file's
/// columns, read from the fuzzer's input: a kind byte, then the value's bytes.
struct FuzzedSQL {
    private var input: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) {
        input = bytes[...]
    }

    mutating func next() -> UInt8? { input.popFirst() }

    /// Reals: infinities (9e999), the largest, a negative zero, a subnormal.
    static let reals: [String] = ["9e999", "-9e999", "1.7976931348623157e308", "-0.0", "0.5", "1e-320"]

    /// The SQL literal of the value kind `kind % 7` picks: NULL, one of `extremes` (the integers
    /// at the edges of what the target's readers compute with), any 64-bit integer, any double
    /// (infinities as 9e999, NaN as NULL), one of `reals`, text of any bytes (invalid UTF-8
    /// too), or a blob of any length up to 47 bytes.
    mutating func value(kind: UInt8, extremes: [String]) -> String {
        switch kind % 7 {
        case 0: return "NULL"
        case 1: return extremes[Int(next() ?? 0) % extremes.count]
        case 2: return String(Int64(bitPattern: bits()))
        case 3:
            let number = Double(bitPattern: bits())
            return number.isFinite ? "\(number)" : number.isNaN ? "NULL" : number > 0 ? "9e999" : "-9e999"
        case 4: return FuzzedSQL.reals[Int(next() ?? 0) % FuzzedSQL.reals.count]
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

/// The SQLite file a fuzz target starts each run from: made once per process by `make`, copied
/// anew for each input to a path of its own, as tests run a target on several threads at once.
final class FuzzedFileTemplate: Sendable {
    private let name: String
    private let bytes: [UInt8]
    private let runs = Atomic<Int>(0)

    /// `make` writes the file at the path it is given, in a folder removed afterwards; what it
    /// opened must be closed when it returns, so that the file holds everything.
    init(name: String, make: (String) throws -> Void) {
        let folder = NSTemporaryDirectory() + "plantleaf-fuzz-\(name)-template-\(getpid())"
        let path = folder + "/\(name).sqlite"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        do {
            try make(path)
        } catch {
            preconditionFailure("the fuzz target's \(name) could not be made: \(error)")
        }
        guard let data = FileManager.default.contents(atPath: path) else { preconditionFailure("the fuzz target's \(name) is not at \(path)") }
        self.name = name
        bytes = Array(data)
    }

    /// A new copy of the file, with no side files of an earlier copy at its path.
    func freshCopy() -> String {
        let run = runs.add(1, ordering: .relaxed).newValue
        let path = NSTemporaryDirectory() + "plantleaf-fuzz-\(name)-\(getpid())-\(run).sqlite"
        for side in ["-wal", "-shm"] { unlink(path + side) }
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }
}
