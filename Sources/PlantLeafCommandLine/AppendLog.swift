import Glibc
import PlantLeafCore
import PlantLeafSupport

/// The write end of the hang-up pipe, for the signal handler (which can reach only globals).
nonisolated(unsafe) private var hangupPipeWriteEnd: Int32 = -1

/// A file that records are appended to, one line each, for weeks of unattended running: each
/// line is written whole with O_APPEND and fsync'd before `append` returns, so a power cut or a
/// SIGKILL leaves only complete lines behind; after SIGHUP the path is opened again, so
/// logrotate can move the file away and a new one starts.
package final class AppendLog {
    package let path: String
    private var descriptor: Int32
    /// SIGHUP turns into a byte here; `append` looks before each write.
    private let hangupReadEnd: Int32
    private let hangupWriteEnd: Int32
    private let previousHandler: sighandler_t?

    /// Opens (creating with mode 644) `path` for appending, and takes over SIGHUP. One log at a
    /// time per process.
    ///
    /// - Throws: `FileWriteError` with the system's reason when the file cannot be opened.
    package init(path: String) throws(FileWriteError) {
        self.path = path
        descriptor = try AppendLog.open(path)
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            let reason = SystemError(errno).reason
            close(descriptor)
            throw FileWriteError(reason: "cannot create the hang-up pipe: \(reason)")
        }
        for end in ends {
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        (hangupReadEnd, hangupWriteEnd) = (ends[0], ends[1])
        hangupPipeWriteEnd = hangupWriteEnd
        _ = HangUp.received.load(ordering: .relaxed)
        previousHandler = SignalHandler.install(SIGHUP) { _ in
            var byte: UInt8 = 1
            _ = write(hangupPipeWriteEnd, &byte, 1)
            // The journal reopens its path too.
            HangUp.received.wrappingAdd(1, ordering: .relaxed)
        }
    }

    /// Has the open log, if there is one, opened again before its next record, as SIGHUP does
    /// (for a program that waits for SIGHUP itself); false when no log is open.
    package static func reopenOpenLog() -> Bool {
        guard hangupPipeWriteEnd >= 0 else { return false }
        var byte: UInt8 = 1
        // A full pipe already holds a reopen to come.
        return write(hangupPipeWriteEnd, &byte, 1) == 1 || errno == EAGAIN
    }

    deinit {
        signal(SIGHUP, previousHandler)
        hangupPipeWriteEnd = -1
        close(hangupReadEnd)
        close(hangupWriteEnd)
        close(descriptor)
    }

    /// Never waits: a FIFO put where the log was (before a SIGHUP, say) is refused, not opened;
    /// nor follows a symlink planted at the log's name to a file it would then append to.
    private static func open(_ path: String) throws(FileWriteError) -> Int32 {
        do {
            return try FileWriter.openRegular(path, flags: O_APPEND | O_NOFOLLOW)
        } catch where FileWriter.isSymbolicLink(path) {
            throw FileWriteError(reason: "is a symbolic link; name the file itself")
        }
    }

    /// Appends `line` and a newline, and returns once they are on disk. Reopens the path first
    /// if SIGHUP came since the last record.
    ///
    /// - Throws: `FileWriteError` when the write, the fsync or a reopen fails.
    package func append(_ line: String) throws(FileWriteError) {
        var byte: UInt8 = 0
        var hungUp = false
        while read(hangupReadEnd, &byte, 1) == 1 { hungUp = true }
        if hungUp {
            let reopened = try AppendLog.open(path)
            close(descriptor)
            descriptor = reopened
        }
        // One write call for the whole line: with O_APPEND it lands at the end in one piece. A
        // write cut short (a full disk) is taken back, so the next record never joins a partial one.
        var before = stat()
        let size = fstat(descriptor, &before) == 0 ? before.st_size : nil
        do {
            try SystemCall.writeAll(Array((line + "\n").utf8), to: descriptor)
        } catch {
            if let size { _ = ftruncate(descriptor, size) }
            throw FileWriteError(reason: error.reason)
        }
        do {
            try SystemCall.retryingInterrupts { fsync(descriptor) }
        } catch {
            throw FileWriteError(reason: "fsync: \(error.reason)")
        }
    }
}
