import Glibc

/// The one way PlantLeaf makes the system calls a signal can interrupt.
package enum SystemCall {
    /// Runs `call` (a system call that returns -1 and sets errno on failure), and runs it again
    /// while it fails with EINTR: a signal that arrived first (SIGHUP reopening the log, SIGINT
    /// asking to stop) is no failure of the call. Returns the first other result; throws the errno
    /// of any other failure. `call` is run anew each time, so it can work out time left again.
    @discardableResult
    package static func retryingInterrupts<Result: FixedWidthInteger & SignedInteger>(
        _ call: () -> Result
    ) throws(SystemError) -> Result {
        while true {
            let result = call()
            guard result == -1 else { return result }
            let code = errno
            guard code == EINTR else { throw SystemError(code) }
        }
    }

    /// Writes every byte of `bytes` to `descriptor`, however many calls that takes. A write that
    /// takes nothing is reported as EIO rather than tried forever.
    ///
    /// - Throws: `SystemError` with write's errno (EIO for a write that takes nothing).
    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let written = try retryingInterrupts {
                bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            }
            guard written > 0 else { throw SystemError(EIO) }
            offset += written
        }
    }
}
