import Glibc
import PlantLeafSupport

extension FileWriter {
    /// Creates or replaces `path` with `bytes`, whole or not at all: the bytes go to a temporary
    /// file in the same folder (created exclusively, never through a symlink), which is then
    /// renamed over `path`, so a reader never sees a half-written file and a failed write leaves
    /// what was there. An existing `path` that is not a regular file (a folder, a FIFO, a device)
    /// is refused; a symlink at `path` is replaced by the file, not written through.
    ///
    /// - Throws: `FileWriteError` with the system's reason, or the file's type.
    package static func replace(_ bytes: [UInt8], at path: String) throws(FileWriteError) {
        var status = stat()
        if stat(path, &status) == 0, let problem = FileReader.typeProblem(status.st_mode) { throw FileWriteError(reason: problem) }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = (folder.isEmpty ? "" : folder) + "/." + name + ".partial-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileWriteError(reason: SystemError(errno).reason) }
        do {
            try SystemCall.writeAll(bytes, to: descriptor)
        } catch {
            close(descriptor)
            unlink(temporary)
            throw FileWriteError(reason: error.reason)
        }
        guard close(descriptor) == 0 else {
            let reason = SystemError(errno).reason
            unlink(temporary)
            throw FileWriteError(reason: reason)
        }
        guard rename(temporary, path) == 0 else {
            let reason = SystemError(errno).reason
            unlink(temporary)
            throw FileWriteError(reason: reason)
        }
    }
}
