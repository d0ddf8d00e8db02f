import CLiteRt
import Glibc

/// Opens libLiteRt.so. It is loaded with dlopen at run time rather than linked, so PlantLeaf
/// builds without it and a missing library is an error message, not a loader crash. Where the
/// library is belongs to the caller (`Interpreter.Options`): an application decides its own
/// layout, and nothing here guesses one.
public enum LiteRtLibrary {
    /// Loads the first of `candidates` that exists. Safe to call repeatedly: the process keeps
    /// the first library it opened. Returns the path that was loaded.
    ///
    /// - Throws: `RuntimeError.libraryPathNotAPath` for a bare name, `.libraryNotFound` when no
    ///   candidate exists, `.libraryUnusable` when the loader or the symbol check refuses it.
    @discardableResult
    public static func load(candidates: [String]) throws(RuntimeError) -> String {
        // dlopen would search the loader's path for a bare name, and fail in its own words.
        if let bare = candidates.first(where: { !$0.contains("/") }) { throw .libraryPathNotAPath(value: bare) }
        guard let path = candidates.first(where: { access($0, F_OK) == 0 }) else {
            throw .libraryNotFound(searched: candidates)
        }
        var detail = [CChar](repeating: 0, count: 512)
        let state = pl_litert_load(path, &detail, detail.count)
        switch LibraryLoad(state: state, detail: detail, library: path) {
        case .loaded: return path
        case .notOpened(let reason), .unusable(let reason): throw .libraryUnusable(path: path, reason: reason)
        }
    }
}
