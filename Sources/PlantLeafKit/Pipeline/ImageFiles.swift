import Glibc

/// Expands command-line paths into the image files to classify: files as given (their bytes
/// decide the format later), folders walked recursively for image extensions, sorted.
public enum ImageFiles {
    public static let extensions: Set<String> = ["jpg", "jpeg", "jpe", "png"]

    public enum Entry: Equatable, Sendable {
        case file(String)
        /// A path that yields nothing to classify, with the reason.
        case problem(path: String, reason: String)
    }

    public static func expand(_ paths: [String]) -> [Entry] {
        var entries: [Entry] = []
        for path in paths {
            var status = stat()
            guard stat(path, &status) == 0 else {
                entries.append(.problem(path: path, reason: errno == ENOENT ? "no such file or directory" : FileReader.systemReason()))
                continue
            }
            guard (status.st_mode & S_IFMT) == S_IFDIR else {
                entries.append(.file(path))
                continue
            }
            var found: [String] = []
            var visited: Set<[UInt64]> = []
            walk(path, into: &found, visited: &visited)
            if found.isEmpty {
                entries.append(.problem(path: path, reason: "folder holds no images (.jpg, .jpeg, .png)"))
            }
            entries.append(contentsOf: found.map(Entry.file))
        }
        return entries
    }

    private static func walk(_ directory: String, into found: inout [String], visited: inout Set<[UInt64]>) {
        var status = stat()
        // Symlinked folders are followed, but each folder once, so a link loop ends.
        guard stat(directory, &status) == 0, visited.insert([UInt64(status.st_dev), UInt64(status.st_ino)]).inserted,
              let handle = opendir(directory) else { return }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        closedir(handle)
        for name in names.sorted() {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            var child = stat()
            guard stat(path, &child) == 0 else { continue }
            if (child.st_mode & S_IFMT) == S_IFDIR {
                walk(path, into: &found, visited: &visited)
            } else if let dot = name.lastIndex(of: "."), extensions.contains(name[name.index(after: dot)...].lowercased()) {
                found.append(path)
            }
        }
    }
}
