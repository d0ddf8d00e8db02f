import Glibc
import PlantLeafSupport

/// Reads whole files with plain POSIX calls, so an error carries the system's own reason.
/// Only regular files are read: a FIFO would wait for a writer forever, a device never ends or
/// reads as nothing, so each is refused by its type. `-` is standard input, read to its end.
package enum FileReader {
    /// Larger files are refused before reading: no leaf photo comes near this.
    package static let maximumSize = 512 * 1024 * 1024
    /// The path that stands for standard input (a file named `-` is still `./-`).
    package static let standardInput = "-"

    /// The whole file at `path` (`-`: standard input to its end).
    /// - Throws: `FileReadError`: the system's reason, a file that is not a regular one, or one
    ///   larger than `maximumSize`.
    package static func readAll(path: String, maximumSize: Int = FileReader.maximumSize) throws(FileReadError) -> [UInt8] {
        if path == standardInput { return try readStandardInput(maximumSize: maximumSize) }
        // Checked before opening, so no device is ever opened (opening some has effects), and
        // again on the open descriptor in case the path was swapped in between.
        var status = stat()
        guard stat(path, &status) == 0 else { throw .system(SystemError(errno)) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .notRegularFile(mode: status.st_mode) }
        // O_NONBLOCK: should a FIFO be swapped in after the check, opening it does not wait.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { throw .system(SystemError(errno)) }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0 else { throw .system(SystemError(errno)) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .notRegularFile(mode: status.st_mode) }
        let size = Int(status.st_size)
        guard size <= maximumSize else {
            throw .tooLarge(size: size, limit: maximumSize)
        }
        return try readToEnd(descriptor, expectedSize: size, maximumSize: maximumSize)
    }

    /// A limit in the largest unit that shows it exactly: "512 MiB", "64 KiB", "1000 bytes".
    package static func sizeText(_ bytes: Int) -> String {
        if bytes > 0, bytes % 1_048_576 == 0 { return "\(bytes / 1_048_576) MiB" }
        if bytes > 0, bytes % 1024 == 0 { return "\(bytes / 1024) KiB" }
        return "\(bytes) bytes"
    }

    /// Why a file of this mode is not read, or nil for a regular file.
    package static func typeProblem(_ mode: mode_t) -> String? {
        (mode & S_IFMT) == S_IFREG ? nil : FileReadError.notRegularFile(mode: mode).reason
    }

    /// Standard input to its end, whatever it is (a pipe, a redirected file) but a terminal,
    /// which would wait for typing that never comes.
    package static func readStandardInput(maximumSize: Int) throws(FileReadError) -> [UInt8] {
        guard isatty(STDIN_FILENO) == 0 else {
            throw .standardInputIsTerminal
        }
        return try readToEnd(STDIN_FILENO, expectedSize: 0, maximumSize: maximumSize)
    }

    /// Reads until end of file, not just the size stat gave: /proc files say 0 and have text,
    /// a file may grow or shrink while being read, a pipe has no size.
    private static func readToEnd(_ descriptor: Int32, expectedSize: Int, maximumSize: Int) throws(FileReadError) -> [UInt8] {
        // One byte more than expected, so a file that is exactly its size ends in one read plus EOF.
        var bytes = [UInt8](repeating: 0, count: min(expectedSize, maximumSize) + 1)
        var filled = 0
        while true {
            if filled == bytes.count {
                guard filled <= maximumSize else {
                    throw .overLimit(limit: maximumSize)
                }
                bytes += [UInt8](repeating: 0, count: min(max(filled, 65_536), maximumSize + 1 - filled))
            }
            let count: Int
            do {
                count = try SystemCall.retryingInterrupts {
                    bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
                }
            } catch {
                throw .system(error)
            }
            if count == 0 { break }
            filled += count
        }
        bytes.removeSubrange(filled...)
        return bytes
    }
}
