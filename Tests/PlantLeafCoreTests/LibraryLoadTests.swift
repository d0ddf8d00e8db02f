import CLibraryLoader
import PlantLeafCore
import Testing

/// The one reading of a run-time library's load that LiteRT, SQLite, libmosquitto and
/// libmicrohttpd share: each loader code with its detail, in the words every module's error uses.
@Suite struct LibraryLoadTests {
    func detail(_ text: String) -> [CChar] { text.utf8CString + [CChar](repeating: 0, count: 8) }

    @Test func eachCodeReadsAsItsOutcome() {
        #expect(LibraryLoad(state: Int32(PL_LIBRARY_LOADED), detail: detail(""), library: "libx.so") == .loaded)
        #expect(LibraryLoad(state: Int32(PL_LIBRARY_NOT_OPENED), detail: detail("libx.so: cannot open shared object file"), library: "libx.so")
                == .notOpened(reason: "libx.so: cannot open shared object file"))
        #expect(LibraryLoad(state: Int32(PL_LIBRARY_NOT_OPENED), detail: detail(""), library: "libx.so") == .notOpened(reason: "dlopen failed"))
        #expect(LibraryLoad(state: Int32(PL_LIBRARY_SYMBOL_MISSING), detail: detail("x_open"), library: "libx.so")
                == .unusable(reason: "libx.so does not export x_open"))
        #expect(LibraryLoad(state: Int32(PL_LIBRARY_SET_UP_FAILED), detail: detail(""), library: "libx.so", setUp: "x_init")
                == .unusable(reason: "x_init failed"))
        #expect(LibraryLoad(state: 9, detail: detail(""), library: "libx.so") == .unusable(reason: "loading failed (state 9)"))
    }
}
