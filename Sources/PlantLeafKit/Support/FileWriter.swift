import Glibc

/// Writes whole files with plain POSIX calls, so an error carries the system's own reason.
public enum FileWriter {
    public static func write(_ bytes: [UInt8], to path: String) throws(FileReadError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileReadError(reason: FileReader.systemReason()) }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw FileReadError(reason: FileReader.systemReason()) }
            offset += count
        }
    }

    /// Makes `path` (one level) unless it is already a folder.
    public static func makeDirectory(_ path: String) throws(FileReadError) {
        var status = stat()
        if stat(path, &status) == 0 {
            guard (status.st_mode & S_IFMT) == S_IFDIR else { throw FileReadError(reason: "exists and is not a folder") }
            return
        }
        guard mkdir(path, 0o755) == 0 else { throw FileReadError(reason: FileReader.systemReason()) }
    }
}
