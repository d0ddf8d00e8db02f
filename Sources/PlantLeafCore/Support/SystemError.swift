import Glibc

/// Why a system call failed: its errno, and the system's words for it.
package struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    package var code: Int32

    /// Pass `errno` right after the failed call: any later call may change it.
    package init(_ code: Int32) { self.code = code }

    /// strerror's text, lower-cased to sit inside a sentence ("permission denied").
    package var reason: String { String(cString: strerror(code)).lowercased() }
    package var description: String { reason }
}
