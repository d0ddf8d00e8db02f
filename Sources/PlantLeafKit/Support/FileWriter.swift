import Glibc

/// Why a file could not be written, in the system's words.
public struct FileWriteError: Error, Equatable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

/// Writes whole text files (reports, CSV) with stdio, so an error carries the system's reason.
public enum FileWriter {
    /// Whether `write` could create or replace `path`, checked before a long job whose output
    /// would otherwise be lost at the end: the folder must exist and take new files, an existing
    /// file must be writable.
    public static func checkWritable(_ path: String) throws(FileWriteError) {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        guard access(folder.isEmpty ? "/" : folder, W_OK | X_OK) == 0 else { throw FileWriteError(reason: FileReader.systemReason()) }
        if access(path, F_OK) == 0, access(path, W_OK) != 0 { throw FileWriteError(reason: FileReader.systemReason()) }
    }

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
