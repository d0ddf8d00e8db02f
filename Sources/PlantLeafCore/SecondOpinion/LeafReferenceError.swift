/// Why a leaf reference file cannot be used.
public enum LeafReferenceError: PlantLeafError {
    /// The file cannot be read (missing, a folder, no permission).
    case unreadable(path: String, reason: String)
    /// The file is not a leaf reference (its first line is not the format's).
    case notAReference(path: String)
    /// The file is cut short or altered: a line is missing or malformed, or its checksum does not match.
    case damaged(path: String, problem: String)
    /// The reference was made for a model with another number of classes.
    case wrongLength(path: String, classes: Int, expected: Int)
    /// The reference was made with the generalist run at another input size.
    case wrongInputSide(path: String, side: Int, expected: Int)
    /// Too few photos, or photos the generalist model does not see as one kind of thing.
    case tooFewPhotos(count: Int, minimum: Int)

    public var message: String {
        switch self {
        case .unreadable(let path, _): return "cannot read the leaf reference \(path)"
        case .notAReference(let path): return "\(path) is not a PlantLeaf leaf reference"
        case .damaged(let path, _): return "the leaf reference \(path) is damaged"
        case .wrongLength(let path, let classes, let expected):
            return "the leaf reference \(path) has \(classes) classes, the generalist model \(expected)"
        case .wrongInputSide(let path, let side, let expected):
            return "the leaf reference \(path) was made at \(side)×\(side) pixels, the generalist model runs at \(expected)×\(expected)"
        case .tooFewPhotos(let count, let minimum):
            return "a leaf reference needs at least \(minimum) leaf photos, got \(count)"
        }
    }

    public var details: String? {
        switch self {
        case .unreadable(_, let reason): return reason
        case .damaged(_, let problem): return problem
        default: return nil
        }
    }
}
