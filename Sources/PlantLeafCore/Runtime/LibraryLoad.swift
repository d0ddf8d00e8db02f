import CLibraryLoader
import PlantLeafSupport

/// What a library opened at run time (LiteRT, libsqlite3, libmosquitto, libmicrohttpd) came to,
/// read once from the loader's code and detail: each module words its own error from it.
package enum LibraryLoad: Equatable {
    case loaded
    /// The loader refused the file (not there, wrong architecture, a dependency missing):
    /// dlerror's text.
    case notOpened(reason: String)
    /// The file opened but is not the library asked for: what it lacks, in words.
    case unusable(reason: String)

    /// The outcome of a `pl_*_load` call that returned `state` with `detail` for `library`
    /// (its name or path); `setUp` names the library's own set-up call, for a refusal of it.
    package init(state: Int32, detail: [CChar], library: String, setUp: String = "the library's set-up") {
        let fact = stringFromCBuffer(detail)
        switch state {
        case Int32(PL_LIBRARY_LOADED): self = .loaded
        case Int32(PL_LIBRARY_NOT_OPENED): self = .notOpened(reason: fact.isEmpty ? "dlopen failed" : fact)
        case Int32(PL_LIBRARY_SYMBOL_MISSING): self = .unusable(reason: "\(library) does not export \(fact)")
        case Int32(PL_LIBRARY_SET_UP_FAILED): self = .unusable(reason: "\(setUp) failed")
        default: self = .unusable(reason: "loading failed (state \(state))")
        }
    }
}
