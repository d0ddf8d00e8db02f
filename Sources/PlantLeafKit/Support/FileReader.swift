import Glibc

/// Why a file's bytes could not be read.
public struct FileReadError: Error, Equatable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

/// Reads whole files with plain POSIX calls, so an error carries the system's own reason.
public enum FileReader {
    /// Larger files are refused before reading: no leaf photo comes near this.
    public static let maximumSize = 512 * 1024 * 1024

    public static func readAll(path: String, maximumSize: Int = FileReader.maximumSize) throws(FileReadError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileReadError(reason: systemReason()) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw FileReadError(reason: systemReason()) }
        if (status.st_mode & S_IFMT) == S_IFDIR { throw FileReadError(reason: "is a directory") }
        let size = Int(status.st_size)
        guard size <= maximumSize else {
            throw FileReadError(reason: "\(size) bytes, more than the \(maximumSize / 1_048_576) MiB limit")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, size - filled) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw FileReadError(reason: systemReason()) }
            if count == 0 { break }  // the file shrank while being read
            filled += count
        }
        return filled == size ? bytes : Array(bytes[0..<filled])
    }

    /// The system's text for `code` (by default the current errno), lower-cased to sit inside a sentence.
    public static func systemReason(_ code: Int32 = errno) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
