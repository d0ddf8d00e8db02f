import Glibc

/// Why a system call failed: its errno, and the system's words for it.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: Int32

    /// Pass `errno` right after the failed call: any later call may change it.
    public init(_ code: Int32) { self.code = code }

    /// strerror's text, lower-cased to sit inside a sentence ("permission denied").
    public var reason: String { String(cString: strerror(code)).lowercased() }
    public var description: String { reason }
}
