import Glibc
import PlantLeafSupport

/// The running executable's path and the folders around it, where PlantLeaf finds what it was
/// installed or built with. Never the working directory: running plantleaf in a folder must not
/// pick up a library, model or labels that folder happens to hold.
package enum ExecutableLocation {
    /// The running executable (/proc/self/exe), or nil when the link cannot be read.
    package static func currentPath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        buffer[length] = 0
        return stringFromCBuffer(buffer)
    }

    /// PREFIX for PREFIX/bin/plantleaf: the executable's folder's parent.
    package static func installPrefix(executablePath: String) -> String {
        parentDirectory(of: parentDirectory(of: executablePath))
    }

    /// The folders a project checkout may hold the executable in, nearest first: up to three
    /// levels above the executable's folder (.build/<config>/plantleaf, or
    /// .build/<triple>/<config>/plantleaf), stopping at /.
    package static func projectRootCandidates(executablePath: String) -> [String] {
        var roots: [String] = []
        var directory = parentDirectory(of: executablePath)
        for _ in 0..<3 where directory != "/" {
            directory = parentDirectory(of: directory)
            roots.append(directory)
        }
        return roots
    }

    /// `relativePath` inside `folder`, with one slash between them even when the folder is /.
    package static func path(_ relativePath: String, in folder: String) -> String {
        (folder == "/" ? "" : folder) + "/" + relativePath
    }

    /// `path` without its last component: "/" for an entry at the root, "." for a bare name.
    package static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }
}
