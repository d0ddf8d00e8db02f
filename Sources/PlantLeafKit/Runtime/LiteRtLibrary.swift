import CLiteRt
import Glibc

/// Finds and opens libLiteRt.so. It is loaded with dlopen at run time rather than linked, so
/// PlantLeaf builds without it and a missing library is an error message, not a loader crash.
public enum LiteRtLibrary {
    /// Environment variable naming the library explicitly; when set, nothing else is searched.
    public static let pathVariable = "PLANTLEAF_LITERT_LIB"
    /// Where `make runtime` puts the library, relative to the project root.
    public static let projectRelativePath = ".runtime/lib/libLiteRt.so"

    /// Where `make install` and the release archives put it, relative to the prefix.
    public static let installedRelativePath = "lib/plantleaf/libLiteRt.so"

    /// Candidate paths in search order: the variable alone if set; otherwise beside the
    /// executable, PREFIX/lib/plantleaf/ for PREFIX/bin/plantleaf, and the project folder the executable
    /// was built in (walking up from .build/<config>/). Never the working directory: running
    /// plantleaf in a folder must not load a shared library that folder happens to hold.
    public static func candidatePaths(environment: [String: String] = currentEnvironment(),
                                      executablePath: String? = ExecutableLocation.currentPath()) -> [String] {
        if let explicit = environment[pathVariable], !explicit.isEmpty { return [explicit] }
        guard let executablePath else { return [] }
        let besideExecutable = ExecutableLocation.path("libLiteRt.so", in: ExecutableLocation.parentDirectory(of: executablePath))
        let installed = ExecutableLocation.path(installedRelativePath, in: ExecutableLocation.installPrefix(executablePath: executablePath))
        let projects = ExecutableLocation.projectRootCandidates(executablePath: executablePath).map {
            ExecutableLocation.path(projectRelativePath, in: $0)
        }
        return [besideExecutable, installed] + projects
    }

    /// Loads the first candidate that exists. Safe to call repeatedly: the process keeps the
    /// first library it opened. Returns the path that was loaded.
    ///
    /// - Throws: `RuntimeError.libraryPathNotAPath` for a bare name, `.libraryNotFound` when no
    ///   candidate exists, `.libraryUnusable` when the loader or the symbol check refuses it.
    @discardableResult
    public static func load(candidates: [String] = candidatePaths()) throws(RuntimeError) -> String {
        // dlopen would search the loader's path for a bare name, and fail in its own words.
        if let bare = candidates.first(where: { !$0.contains("/") }) { throw .libraryPathNotAPath(variable: pathVariable, value: bare) }
        guard let path = candidates.first(where: { access($0, F_OK) == 0 }) else {
            throw .libraryNotFound(searched: candidates)
        }
        var detail = [CChar](repeating: 0, count: 512)
        let state = pl_litert_load(path, &detail, detail.count)
        let fact = stringFromCBuffer(detail)
        switch state {
        case Int32(PL_LITERT_LOADED): return path
        case Int32(PL_LITERT_NOT_OPENED): throw .libraryUnusable(path: path, reason: fact.isEmpty ? "dlopen failed" : fact)
        case Int32(PL_LITERT_SYMBOL_MISSING): throw .libraryUnusable(path: path, reason: "\(path) does not export \(fact)")
        default: throw .libraryUnusable(path: path, reason: "loading failed (state \(state))")
        }
    }

    /// The variables that steer the search, as this process has them.
    public static func currentEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        for key in [pathVariable] {
            if let value = getenv(key) { result[key] = String(cString: value) }
        }
        return result
    }
}
