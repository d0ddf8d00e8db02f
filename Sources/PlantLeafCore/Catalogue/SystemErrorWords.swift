import Glibc
import PlantLeafSupport

// SystemError itself is PlantLeafSupport's, which knows no catalogue: its words for people are here.
extension SystemError {
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
