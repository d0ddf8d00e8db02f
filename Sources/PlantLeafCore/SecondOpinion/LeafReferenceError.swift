/// Why a leaf reference file cannot be used.
public enum LeafReferenceError: WordedError {
    /// The file cannot be read (missing, a folder, no permission).
    case unreadable(path: String, reason: FileReadError)
    /// The file is not a leaf reference (its first line is not the format's).
    case notAReference(path: String)
    /// The file is cut short or altered: a line is missing or malformed, or its checksum does not match.
    case damaged(path: String, problem: String)
    /// The reference was made for a model with another number of classes.
    case wrongLength(path: String, classes: Int, expected: Int)
    /// The reference was made with another generalist model (`madeWith` and `expected` are
    /// `SecondOpinion.generalist`'s: file name and size).
    case wrongGeneralist(path: String, madeWith: String, expected: String)
    /// The reference was made with the generalist run at another input size.
    case wrongInputSide(path: String, side: Int, expected: Int)
    /// Too few photos, or photos the generalist model does not see as one kind of thing.
    case tooFewPhotos(count: Int, minimum: Int)

    public func message(in catalogue: Catalogue) -> String {
        switch self {
        case .unreadable(let path, _): return catalogue.text("error.reference.unreadable", ["path": path])
        case .notAReference(let path): return catalogue.text("error.reference.not-a-reference", ["path": path])
        case .damaged(let path, _): return catalogue.text("error.reference.damaged", ["path": path])
        case .wrongLength(let path, let classes, let expected):
            return catalogue.text("error.reference.wrong-length", ["path": path, "classes": String(classes), "expected": String(expected)])
        case .wrongGeneralist(let path, let madeWith, let expected):
            return catalogue.text("error.reference.wrong-generalist", ["path": path, "made": madeWith, "expected": expected])
        case .wrongInputSide(let path, let side, let expected):
            return catalogue.text("error.reference.wrong-input-side", ["path": path, "side": String(side), "expected": String(expected)])
        case .tooFewPhotos(let count, let minimum):
            return catalogue.text("error.reference.too-few-photos", ["count": String(count), "minimum": String(minimum)])
        }
    }

    /// Why the file cannot be read, or the line that is wrong (the check's own words).
    public func details(in catalogue: Catalogue) -> String? {
        switch self {
        case .unreadable(_, let reason): return reason.message(in: catalogue)
        case .damaged(_, let problem): return problem
        default: return nil
        }
    }
}
