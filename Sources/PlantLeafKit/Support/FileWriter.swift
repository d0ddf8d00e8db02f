import Glibc

/// Why a file could not be written, in the system's words.
public struct FileWriteError: Error, Equatable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

/// Writes whole text files (reports, CSV) with stdio, so an error carries the system's reason.
public enum FileWriter {
    /// Creates or truncates `path` and writes `text` to it.
    public static func write(_ text: String, to path: String) throws(FileWriteError) {
        guard let file = fopen(path, "w") else { throw FileWriteError(reason: FileReader.systemReason()) }
        let written = fputs(text, file) >= 0
        let writeReason = written ? nil : FileReader.systemReason()
        // fclose flushes the buffer, so a full disk may only show here.
        let closed = fclose(file) == 0
        if let writeReason { throw FileWriteError(reason: writeReason) }
        if !closed { throw FileWriteError(reason: FileReader.systemReason()) }
    }
}
