import Glibc

/// Writes whole lines straight to the file descriptors, so stdout and stderr lines come out in
/// the order they were written and nothing waits in a buffer if the process is killed.
enum Console {
    static func out(_ text: String) { write(text + "\n", to: STDOUT_FILENO) }

    static func error(_ text: String) { write(text + "\n", to: STDERR_FILENO) }

    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Redraws one status line on a terminal's stderr; `nil` clears it.
    static func progress(_ text: String?) { write("\r\u{1B}[K" + (text ?? ""), to: STDERR_FILENO) }

    static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }  // a closed pipe: nothing more can be said
                offset += written
            }
        }
    }
}
