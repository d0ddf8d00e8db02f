import Glibc
import PlantLeafCore
import PlantLeafCamera
import PlantLeafSupport
import Synchronization

/// Writes whole lines straight to the file descriptors, so stdout and stderr lines come out in
/// the order they were written and nothing waits in a buffer if the process is killed.
///
/// A failed write to stdout is remembered (the first errno) and later stdout writes are skipped:
/// the commands stop their work when `stdoutFailed`, and main.swift turns the failure into an
/// error line and exit 2, or, for EPIPE (the reader closed the pipe, as `| head -1` does), a quiet
/// end. A failed write to stderr has nowhere left to be reported and is ignored.
enum Console {
    private static let stdoutError = Atomic<Int32>(0)

    static func out(_ text: String) { write(text + "\n", to: STDOUT_FILENO) }

    static func error(_ text: String) { write(text + "\n", to: STDERR_FILENO) }

    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Whether a progress line may be drawn: stderr is a terminal that understands cursor
    /// movement (TERM=dumb, an Emacs shell buffer, does not).
    static var stderrTakesProgress: Bool {
        guard stderrIsTerminal else { return false }
        let terminal = getenv("TERM").map { String(cString: $0) } ?? ""
        return !terminal.isEmpty && terminal != "dumb"
    }

    /// The errno of the first write to stdout that failed, if one did.
    static var stdoutFailure: Int32? {
        let code = stdoutError.load(ordering: .relaxed)
        return code == 0 ? nil : code
    }

    static var stdoutFailed: Bool { stdoutFailure != nil }

    /// Records that stdout cannot take output (a closed descriptor found at start, or a failed write).
    static func stdoutCannotBeWritten(_ code: Int32) {
        _ = stdoutError.compareExchange(expected: 0, desired: code, ordering: .relaxed)
    }

    /// Redraws one status line on a terminal's stderr; `nil` clears it.
    static func progress(_ text: String?) { write("\r\u{1B}[K" + (text ?? ""), to: STDERR_FILENO) }

    static func write(_ text: String, to descriptor: Int32) {
        if descriptor == STDOUT_FILENO && stdoutFailed { return }
        do {
            try SystemCall.writeAll(Array(text.utf8), to: descriptor)
        } catch {
            if descriptor == STDOUT_FILENO { stdoutCannotBeWritten(error.code) }
        }
    }
}
