import Glibc

/// Where the default model and labels live: in the current directory's project, else in the
/// project the running executable was built in (found by walking up from .build/<config>/).
public enum ProjectPaths {
    public static let defaultModel = "Models/plantvillage_int8.tflite"
    public static let defaultLabels = "labels.txt"
    public static let version = "0.1.0"

    /// The first of `relativePath` under the working directory or an ancestor of the executable
    /// that exists; the working-directory one when none does (so the error names a sensible path).
    public static func locate(_ relativePath: String) -> String {
        var roots: [String] = []
        if let cwd = LiteRtLibrary.currentWorkingDirectory() { roots.append(cwd) }
        if var directory = LiteRtLibrary.currentExecutablePath().map(LiteRtLibrary.parentDirectory(of:)) {
            for _ in 0..<4 where directory != "/" {
                directory = LiteRtLibrary.parentDirectory(of: directory)
                roots.append(directory)
            }
        }
        for root in roots where access(root + "/" + relativePath, F_OK) == 0 {
            return root == LiteRtLibrary.currentWorkingDirectory() ? relativePath : root + "/" + relativePath
        }
        return relativePath
    }
}
