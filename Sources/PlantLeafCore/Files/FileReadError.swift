import Glibc
import PlantLeafSupport

/// Why a path gave no bytes to read or no images to classify (the caller knows which path): the
/// system's reason, a file of a kind that is not read, a size past the limit, or what walking a
/// folder found.
public enum FileReadError: WordedError {
    case system(SystemError)
    /// A FIFO, a device, a socket, a folder where a file was wanted: `mode` is `stat`'s.
    case notRegularFile(mode: mode_t)
    case tooLarge(size: Int, limit: Int)
    /// Standard input or a growing file ran past the limit while being read.
    case overLimit(limit: Int)
    case standardInputIsTerminal
    /// `stat` said "no such file", but the path is a symbolic link whose target is missing.
    case danglingLink
    case linkLoop
    case pathTooLong
    case folderHoldsNoImages
    case folderAlreadySearched
    case cannotSearchFolder(SystemError)

    /// The English reason, as JSON, logs and the other subcommands give it.
    public var reason: String { message }

    public func message(in catalogue: Catalogue) -> String {
        switch self {
        case .system(let error): return error.reason(in: catalogue)
        case .notRegularFile(let mode): return catalogue["error.file." + FileReadError.kindName(mode)]
        case .tooLarge(let size, let limit):
            return catalogue.text("error.file.too-large", ["size": String(size), "limit": FileReader.sizeText(limit)])
        case .overLimit(let limit): return catalogue.text("error.file.over-limit", ["limit": FileReader.sizeText(limit)])
        case .standardInputIsTerminal: return catalogue["error.file.standard-input-terminal"]
        case .danglingLink: return catalogue["error.file.dangling-link"]
        case .linkLoop: return catalogue["error.file.link-loop"]
        case .pathTooLong: return catalogue.text("error.file.path-too-long", ["limit": String(PATH_MAX)])
        case .folderHoldsNoImages: return catalogue["error.file.no-images"]
        case .folderAlreadySearched: return catalogue["error.file.folder-searched"]
        case .cannotSearchFolder(let error): return catalogue.text("error.file.cannot-search", ["reason": error.reason(in: catalogue)])
        }
    }

    /// The catalogue's name for a kind of file that is not a regular one.
    private static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "directory"
        case S_IFIFO: return "fifo"
        case S_IFCHR: return "character-device"
        case S_IFBLK: return "block-device"
        case S_IFSOCK: return "socket"
        default: return "not-regular"
        }
    }
}
