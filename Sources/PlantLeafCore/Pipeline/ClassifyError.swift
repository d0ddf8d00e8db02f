/// Why one file could not be classified; says which file.
public enum ClassifyError: WordedError {
    case unreadable(path: String, reason: FileReadError)
    case undecodable(path: String, ImageError)
    case runtime(path: String, RuntimeError)

    public var path: String {
        switch self {
        case .unreadable(let path, _), .undecodable(let path, _), .runtime(let path, _): return path
        }
    }

    /// The reason without the path, for output formats that carry the path separately.
    public var reason: String { reason(in: .english) }

    /// The reason without the path, in `catalogue`'s language.
    public func reason(in catalogue: Catalogue) -> String {
        switch self {
        case .unreadable(_, let reason): return catalogue["error.file.unreadable"] + ": " + reason.message(in: catalogue)
        case .undecodable(_, let error): return error.description(in: catalogue)
        case .runtime(_, let error): return error.description(in: catalogue)
        }
    }

    public func message(in catalogue: Catalogue) -> String {
        switch self {
        case .unreadable(let path, _): return path + ": " + catalogue["error.file.unreadable"]
        case .undecodable(let path, let error): return path + ": " + error.message(in: catalogue)
        case .runtime(let path, let error): return path + ": " + error.message(in: catalogue)
        }
    }

    public func details(in catalogue: Catalogue) -> String? {
        switch self {
        case .unreadable(_, let reason): return reason.message(in: catalogue)
        case .undecodable(_, let error): return error.details(in: catalogue)
        case .runtime(_, let error): return error.details(in: catalogue)
        }
    }
}
