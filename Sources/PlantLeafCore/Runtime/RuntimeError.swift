/// What went wrong while loading LiteRT, the model, or running it: one line that says what
/// failed and where.
public enum RuntimeError: PlantLeafError {
    /// No libLiteRt.so at any of the places searched.
    case libraryNotFound(searched: [String])
    /// A libLiteRt.so was found but cannot be used (wrong architecture, too old a glibc, wrong version).
    case libraryUnusable(path: String, reason: String)
    /// The library was named by a bare name, which dlopen would look up elsewhere.
    case libraryPathNotAPath(value: String)
    case modelNotFound(path: String)
    case modelUnreadable(path: String, reason: String)
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

    public var message: String {
        switch self {
        case .libraryNotFound(let searched): return "libLiteRt.so not found (looked in \(searched.joined(separator: ", ")))"
        case .libraryUnusable(let path, _): return "cannot load \(path)"
        case .libraryPathNotAPath(let value):
            return "libLiteRt.so must be named by a path (with a /, e.g. ./\(value)), got '\(value)'"
        case .modelNotFound(let path): return "model not found: \(path)"
        case .modelUnreadable(let path, _): return "cannot read model \(path)"
        case .notAModel(let path, _): return "\(path) is not a TensorFlow Lite model"
        case .damagedModel(let path, _): return "model \(path) is damaged"
        case .unsupportedModel(let path, _): return "model \(path) is not supported"
        case .callFailed(let function, _, let context): return "\(function) failed for \(context)"
        case .invalidThreadCount(let threads): return "thread count must be at least 1, got \(threads)"
        case .invalidInputSide(let side, let allowed):
            return "an input side of \(side) pixels was asked for; \(allowed.lowerBound) to \(allowed.upperBound) can be"
        case .threadsUnavailable(let threads, _):
            return "cannot start the \(threads - 1) helper threads of a \(threads)-thread interpreter"
        }
    }

    public var details: String? {
        switch self {
        case .libraryNotFound, .libraryPathNotAPath, .modelNotFound, .invalidThreadCount, .invalidInputSide: return nil
        case .libraryUnusable(_, let reason): return "\(reason); PlantLeaf needs libLiteRt.so from ai-edge-litert 2.3.0"
        case .modelUnreadable(_, let reason), .notAModel(_, let reason), .damagedModel(_, let reason), .unsupportedModel(_, let reason):
            return reason
        case .callFailed(_, let status, _): return "\(RuntimeError.statusName(status)) (LiteRT status \(status))"
        case .threadsUnavailable(_, let reason): return "\(reason) (the process or user thread limit, ulimit -u, is reached)"
        }
    }

    /// libLiteRt.so does not export LiteRtGetStatusString, so the names live here.
    static func statusName(_ status: Int32) -> String {
        switch status {
        case 1: return "invalid argument"
        case 2: return "out of memory"
        case 3: return "runtime failure"
        case 4: return "missing input"
        case 5: return "unsupported"
        case 6: return "not found"
        case 7: return "timeout"
        case 8: return "wrong version"
        case 500: return "file I/O error"
        case 501: return "invalid flatbuffer"
        case 502: return "dynamic loading error"
        case 504: return "compilation failed"
        case 1000: return "index out of bounds"
        default: return "unknown error"
        }
    }
}
