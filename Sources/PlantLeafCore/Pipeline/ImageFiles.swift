import Glibc
import PlantLeafSupport

/// Expands command-line paths into the image files to classify: files as given (their bytes
/// decide the format later), folders walked recursively for image extensions, sorted. Nothing
/// is left out without a word: whatever could hold images but cannot be searched or read (an
/// unreadable folder, a dangling or looping symbolic link, a path too long, a FIFO named .jpg)
/// is a problem entry, which the batch reports as a failed input.
public enum ImageFiles {
    public static let extensions: Set<String> = ["jpg", "jpeg", "jpe", "png"]

    /// Paths are the bytes the command line and the folder listings gave, never re-encoded:
    /// each names exactly the file that was found.
    public enum Entry: Equatable, Sendable {
        case file(PathName)
        /// A path that yields nothing to classify, with the reason.
        case problem(path: PathName, reason: FileReadError)
    }

    /// The entries for `paths` in order: each file as given, each folder's images sorted by
    /// their path bytes, and a problem entry for anything that yields none. `-` is standard input.
    public static func expand(_ paths: [PathName]) -> [Entry] {
        var entries: [Entry] = []
        for path in paths {
            if path.string == FileReader.standardInput {
                entries.append(.file(path))
                continue
            }
            var status = stat()
            guard path.withCString({ stat($0, &status) }) == 0 else {
                entries.append(.problem(path: path, reason: unreachableReason(path)))
                continue
            }
            guard (status.st_mode & S_IFMT) == S_IFDIR else {
                entries.append(entry(path, mode: status.st_mode))
                continue
            }
            var found: [Entry] = []
            var visited: Set<[UInt64]> = []
            walk(path, status: status, into: &found, visited: &visited)
            if found.isEmpty {
                entries.append(.problem(path: path, reason: .folderHoldsNoImages))
            }
            entries.append(contentsOf: found)
        }
        return entries
    }

    /// Why `stat` failed on a path, told apart where the system's words would mislead: a
    /// dangling symbolic link is "no such file" to stat.
    private static func unreachableReason(_ path: PathName) -> FileReadError {
        let code = errno
        var link = stat()
        switch code {
        case ENOENT where path.withCString({ lstat($0, &link) }) == 0: return .danglingLink
        case ELOOP: return .linkLoop
        case ENAMETOOLONG: return .pathTooLong
        default: return .system(SystemError(code))
        }
    }

    /// A file to classify, or a problem entry when it is not a regular file (a FIFO named .jpg).
    private static func entry(_ path: PathName, mode: mode_t) -> Entry {
        (mode & S_IFMT) == S_IFREG ? .file(path) : .problem(path: path, reason: .notRegularFile(mode: mode))
    }

    private static func walk(_ directory: PathName, status: stat, into found: inout [Entry], visited: inout Set<[UInt64]>) {
        // Symlinked folders are followed, but each folder once, so a link loop ends (with a line).
        guard visited.insert([UInt64(status.st_dev), UInt64(status.st_ino)]).inserted else {
            found.append(.problem(path: directory, reason: .folderAlreadySearched))
            return
        }
        guard let handle = directory.withCString({ opendir($0) }) else {
            found.append(.problem(path: directory, reason: .cannotSearchFolder(SystemError(errno))))
            return
        }
        var names: [[UInt8]] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name.first != UInt8(ascii: ".") { names.append(name) }
        }
        closedir(handle)
        // Byte order, as `LC_ALL=C ls` lists them: defined for names that are not UTF-8 too.
        for name in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let path = directory.appending(name)
            var child = stat()
            guard path.withCString({ stat($0, &child) }) == 0 else {
                found.append(.problem(path: path, reason: unreachableReason(path)))
                continue
            }
            if (child.st_mode & S_IFMT) == S_IFDIR {
                walk(path, status: child, into: &found, visited: &visited)
            } else if let dot = name.lastIndex(of: UInt8(ascii: ".")),
                      extensions.contains(String(decoding: name[(dot + 1)...], as: UTF8.self).lowercased()) {
                found.append(entry(path, mode: child.st_mode))
            }
        }
    }
}
