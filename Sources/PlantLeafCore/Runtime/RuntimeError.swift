/// What went wrong while loading LiteRT, the model, or running it: one line that says what
/// failed and where.
public enum RuntimeError: WordedError {
    /// No libLiteRt.so at any of the places searched.
    case libraryNotFound(searched: [String])
    /// A libLiteRt.so was found but cannot be used (wrong architecture, too old a glibc, wrong version).
    case libraryUnusable(path: String, reason: String)
    /// The library was named by a bare name, which dlopen would look up elsewhere.
    case libraryPathNotAPath(value: String)
    case modelNotFound(path: String)
    case modelUnreadable(path: String, reason: FileReadError)
    /// The file is not a TensorFlow Lite flatbuffer (checked before the runtime sees it).
    case notAModel(path: String, reason: String)
    /// A TensorFlow Lite flatbuffer whose structure is broken (truncated, or bytes changed).
    case damagedModel(path: String, reason: String)
    /// The model loaded, but PlantLeaf cannot feed it (input not [1,H,W,3], unsupported types ...).
    case unsupportedModel(path: String, reason: String)
    /// A LiteRT call returned an error status.
    case callFailed(function: String, status: Int32, context: String)
    case invalidThreadCount(Int)
    /// An input side was asked for outside those the model can be resized to.
    case invalidInputSide(Int, allowed: ClosedRange<Int>)
    /// The interpreter's thread pool could not be started (the thread limit, `ulimit -u`).
    case threadsUnavailable(threads: Int, reason: String)

    public func message(in catalogue: Catalogue) -> String {
        switch self {
        case .libraryNotFound(let searched):
            return catalogue.text("error.runtime.library-not-found", ["searched": searched.joined(separator: ", ")])
        case .libraryUnusable(let path, _): return catalogue.text("error.runtime.library-unusable", ["path": path])
        case .libraryPathNotAPath(let value): return catalogue.text("error.runtime.library-path-not-a-path", ["value": value])
        case .modelNotFound(let path): return catalogue.text("error.runtime.model-not-found", ["path": path])
        case .modelUnreadable(let path, _): return catalogue.text("error.runtime.model-unreadable", ["path": path])
        case .notAModel(let path, _): return catalogue.text("error.runtime.not-a-model", ["path": path])
        case .damagedModel(let path, _): return catalogue.text("error.runtime.damaged-model", ["path": path])
        case .unsupportedModel(let path, _): return catalogue.text("error.runtime.unsupported-model", ["path": path])
        case .callFailed(let function, _, let context): return catalogue.text("error.runtime.call-failed", ["function": function, "context": context])
        case .invalidThreadCount(let threads): return catalogue.text("error.runtime.invalid-thread-count", ["threads": String(threads)])
        case .invalidInputSide(let side, let allowed):
            return catalogue.text("error.runtime.invalid-input-side", ["side": String(side), "lowest": String(allowed.lowerBound),
                                                                       "highest": String(allowed.upperBound)])
        case .threadsUnavailable(let threads, _):
            return catalogue.text("error.runtime.threads-unavailable", ["helpers": String(threads - 1), "threads": String(threads)])
        }
    }

    /// The system's, LiteRT's or the model check's words, in the catalogue's frame where there is one.
    public func details(in catalogue: Catalogue) -> String? {
        switch self {
        case .libraryNotFound, .libraryPathNotAPath, .modelNotFound, .invalidThreadCount, .invalidInputSide: return nil
        case .libraryUnusable(_, let reason): return catalogue.text("error.runtime.library-unusable.details", ["reason": reason])
        case .modelUnreadable(_, let reason): return reason.message(in: catalogue)
        case .notAModel(_, let reason), .damagedModel(_, let reason), .unsupportedModel(_, let reason): return reason
        case .callFailed(_, let status, _):
            return catalogue.text("error.runtime.call-failed.details", ["name": RuntimeError.statusName(status, in: catalogue), "status": String(status)])
        case .threadsUnavailable(_, let reason): return catalogue.text("error.runtime.threads-unavailable.details", ["reason": reason])
        }
    }

    /// What a LiteRT status means, in `catalogue`'s language: libLiteRt.so does not export
    /// LiteRtGetStatusString, so the words live in the catalogue.
    static func statusName(_ status: Int32, in catalogue: Catalogue) -> String {
        catalogue["error.runtime.status." + (statusNames[status] ?? "unknown")]
    }

    /// The LiteRT statuses the catalogue has words for, by their names there.
    package static let statusNames: [Int32: String] = [
        1: "invalid-argument", 2: "out-of-memory", 3: "runtime-failure", 4: "missing-input", 5: "unsupported", 6: "not-found",
        7: "timeout", 8: "wrong-version", 500: "file-io", 501: "invalid-flatbuffer", 502: "dynamic-loading", 504: "compilation-failed",
        1000: "index-out-of-bounds",
    ]
}
