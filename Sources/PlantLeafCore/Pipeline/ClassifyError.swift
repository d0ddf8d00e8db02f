/// Why one file could not be classified; says which file.
public enum ClassifyError: PlantLeafError {
    case unreadable(path: String, reason: String)
    case undecodable(path: String, ImageError)
    case runtime(path: String, RuntimeError)

    public var path: String {
        switch self {
        case .unreadable(let path, _), .undecodable(let path, _), .runtime(let path, _): return path
        }
    }

    /// The reason without the path, for output formats that carry the path separately.
    public var reason: String {
        switch self {
        case .unreadable(_, let reason): return "cannot read file: \(reason)"
        case .undecodable(_, let error): return error.description
        case .runtime(_, let error): return error.description
        }
    }

    public var message: String {
        switch self {
        case .unreadable(let path, _): return "\(path): cannot read file"
        case .undecodable(let path, let error): return "\(path): \(error.message)"
        case .runtime(let path, let error): return "\(path): \(error.message)"
        }
    }

    public var details: String? {
        switch self {
        case .unreadable(_, let reason): return reason
        case .undecodable(_, let error): return error.details
        case .runtime(_, let error): return error.details
        }
    }
}
