import Glibc

/// Why a system call failed: its errno, and the system's words for it.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: Int32

    /// Pass `errno` right after the failed call: any later call may change it.
    public init(_ code: Int32) { self.code = code }

    /// strerror's text, lower-cased to sit inside a sentence ("permission denied").
    public var reason: String { String(cString: strerror(code)).lowercased() }
    public var description: String { reason }

    /// The reason in `catalogue`'s language: the catalogue's words for the failures a file or a
    /// folder meets, strerror's for the rarer rest (the process does not set a locale, so the C
    /// library speaks English). The English catalogue's words are strerror's own.
    public func reason(in catalogue: Catalogue) -> String {
        guard let name = SystemError.names[code] else { return reason }
        return catalogue["error.system." + name]
    }

    /// The errno values the catalogue has words for, by their names.
    package static let names: [Int32: String] = [
        ENOENT: "ENOENT", EACCES: "EACCES", EPERM: "EPERM", EISDIR: "EISDIR", ENOTDIR: "ENOTDIR", ELOOP: "ELOOP",
        ENAMETOOLONG: "ENAMETOOLONG", EAGAIN: "EAGAIN", ENOMEM: "ENOMEM", EIO: "EIO", EMFILE: "EMFILE", ENFILE: "ENFILE",
        ENOSPC: "ENOSPC", EROFS: "EROFS", EBUSY: "EBUSY", ENXIO: "ENXIO", ENODEV: "ENODEV", EINVAL: "EINVAL",
    ]
}
