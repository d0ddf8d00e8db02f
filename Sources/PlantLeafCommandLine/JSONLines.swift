import Glibc
import PlantLeafCore
import PlantLeafSupport

/// A JSON-lines file read a line at a time in bounded memory: a line longer than the budget is
/// skipped to its end and reported as too long, never held.
struct JSONLines {
    enum Line {
        case line([UInt8])
        case tooLong
    }

    private let file: UnsafeMutablePointer<FILE>
    private let maximumBytes: Int
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0, end = 0
    /// The number of the line `next` returned last, from 1.
    private(set) var lineNumber = 0

    init(file: UnsafeMutablePointer<FILE>, maximumBytes: Int) {
        self.file = file
        self.maximumBytes = maximumBytes
    }

    /// The next non-empty line without its newline; nil at the end of the file.
    mutating func next() -> Line? {
        var current: [UInt8] = []
        var overlong = false
        while true {
            if start == end {
                end = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
                start = 0
                if end == 0 {
                    guard !current.isEmpty || overlong else { return nil }
                    lineNumber += 1
                    return overlong ? .tooLong : .line(current)
                }
            }
            if let newline = buffer[start..<end].firstIndex(of: 10) {
                if !overlong { current += buffer[start..<newline] }
                start = newline + 1
                lineNumber += 1
                if overlong || current.count > maximumBytes { return .tooLong }
                if current.isEmpty { continue }
                return .line(current)
            }
            if !overlong { current += buffer[start..<end] }
            start = end
            if current.count > maximumBytes {
                overlong = true
                current = []
            }
        }
    }

    /// The "source" member of an exported reading's line, when it has one.
    static func source(of line: [UInt8]) -> String? {
        guard case .object(let members)? = try? JSONValue(parsing: line, maximumDepth: 8, maximumBytes: ReadingRecord.maximumBytes),
              case .string(let source)? = members["source"] else { return nil }
        return source
    }
}
