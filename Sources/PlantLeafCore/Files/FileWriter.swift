import Glibc
import PlantLeafSupport

/// Writes whole files with plain POSIX calls, so an error carries the system's own reason.
package enum FileWriter {
    /// Whether `write` could create or replace `path`, checked before a long job whose output
    /// would otherwise be lost at the end: the folder must exist and take new files, an existing
    /// file must be writable and not a folder.
    ///
    /// - Throws: `FileWriteError` saying why `path` could not be written.
    package static func checkWritable(_ path: String) throws(FileWriteError) {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        guard access(folder.isEmpty ? "/" : folder, W_OK | X_OK) == 0 else { throw FileWriteError(reason: SystemError(errno).reason) }
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        if let problem = FileReader.typeProblem(status.st_mode) { throw FileWriteError(reason: problem) }
        if access(path, W_OK) != 0 { throw FileWriteError(reason: SystemError(errno).reason) }
    }

    /// Opens `path` for writing with `flags` added (O_CREAT: mode 644), refusing whatever is not a
    /// regular file, as inputs are, without ever waiting: opening a FIFO blocks until a reader
    /// comes, and a signal handler that only sets a flag cannot end that wait. A file of another
    /// type is refused by its type before opening (opening a device can have effects), and again
    /// on the open descriptor in case the path was swapped in between; O_NONBLOCK makes that
    /// open of a swapped-in FIFO return at once.
    ///
    /// - Throws: `FileWriteError` with the system's reason or the file's type.
    package static func openRegular(_ path: String, flags: Int32) throws(FileWriteError) -> Int32 {
        var status = stat()
        if stat(path, &status) == 0, let problem = FileReader.typeProblem(status.st_mode) { throw FileWriteError(reason: problem) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | flags, 0o644)
        guard descriptor >= 0 else {
            // A FIFO swapped in without a reader: open refuses it with ENXIO.
            let reason = errno == ENXIO ? "is not a regular file" : SystemError(errno).reason
            throw FileWriteError(reason: reason)
        }
        guard fstat(descriptor, &status) == 0 else {
            let reason = SystemError(errno).reason
            close(descriptor)
            throw FileWriteError(reason: reason)
        }
        if let problem = FileReader.typeProblem(status.st_mode) {
            close(descriptor)
            throw FileWriteError(reason: problem)
        }
        // Regular files ignore O_NONBLOCK; cleared all the same, so writes stay plain blocking ones.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return descriptor
    }

    /// Whether `path` itself (not what it points to) is a symbolic link.
    package static func isSymbolicLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
    }

    /// Whether two output paths would write the same file: the same text, or existing files
    /// with the same device and inode (a link, "./x" and "x").
    package static func sameFile(_ first: String, _ second: String) -> Bool {
        if first == second { return true }
        var a = stat(), b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    /// Creates or truncates `path` and writes `text` to it.
    ///
    /// - Throws: `FileWriteError` with the system's reason.
    package static func write(_ text: String, to path: String) throws(FileWriteError) {
        try write(Array(text.utf8), to: path)
    }

    /// Creates or truncates `path` and writes `bytes` to it.
    ///
    /// - Throws: `FileWriteError` with the system's reason (also a delayed error reported by
    ///   close), or when `path` is not a regular file.
    package static func write(_ bytes: [UInt8], to path: String) throws(FileWriteError) {
        try writeAllAndClose(bytes, to: try openRegular(path, flags: O_TRUNC))
    }

    /// Writes `bytes` to `descriptor` and closes it, whatever happens.
    private static func writeAllAndClose(_ bytes: [UInt8], to descriptor: Int32) throws(FileWriteError) {
        do {
            try SystemCall.writeAll(bytes, to: descriptor)
        } catch {
            close(descriptor)
            throw FileWriteError(reason: error.reason)
        }
        // close can report a delayed write error (NFS, full disk).
        guard close(descriptor) == 0 else { throw FileWriteError(reason: SystemError(errno).reason) }
    }

    /// Writes `bytes` as a new file named `stem` + `suffix` in `folder`, or `stem-2` + `suffix`,
    /// `stem-3` … when that name is taken, and returns the path written. The file appears whole
    /// or not at all: the bytes go to a temporary file first (created exclusively, never through
    /// a symlink) that is then linked under its name, and link never replaces what is there, so
    /// nothing already in the folder (an earlier run's file, a symlink planted in its place) is
    /// ever overwritten or followed.
    ///
    /// - Throws: `FileWriteError` with the system's reason.
    package static func writeNew(_ bytes: [UInt8], in folder: String, stem: String, suffix: String) throws(FileWriteError) -> String {
        let temporary = folder + "/." + stem + ".partial-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileWriteError(reason: SystemError(errno).reason) }
        defer { unlink(temporary) }
        try writeAllAndClose(bytes, to: descriptor)
        for attempt in 1...1000 {
            let path = folder + "/" + stem + (attempt == 1 ? "" : "-\(attempt)") + suffix
            if link(temporary, path) == 0 { return path }
            guard errno == EEXIST else { throw FileWriteError(reason: SystemError(errno).reason) }
        }
        throw FileWriteError(reason: "1000 files named \(stem)…\(suffix) exist already")
    }

    /// Makes `path` (one level) unless it is already a folder.
    ///
    /// - Throws: `FileWriteError` when `path` exists and is not a folder, or cannot be made.
    package static func makeDirectory(_ path: String) throws(FileWriteError) {
        var status = stat()
        if stat(path, &status) == 0 {
            guard (status.st_mode & S_IFMT) == S_IFDIR else { throw FileWriteError(reason: "exists and is not a folder") }
            return
        }
        guard mkdir(path, 0o755) == 0 else { throw FileWriteError(reason: SystemError(errno).reason) }
    }
}
