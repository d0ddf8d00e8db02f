import PlantLeafJournal

/// Why the lessons could not be read or changed: one line that says what and what to do. The
/// lessons are left as they were whenever one is thrown.
public enum LessonsError: Error, CustomStringConvertible {
    case notFound(path: String)
    case notALessonsFile(path: String)
    case damaged(path: String, problem: String)
    case storage(JournalError)
    case badName(String)
    case pictureTooLarge(source: String, bytes: Int)
    /// The features are another model's (another length) than the lessons'.
    case wrongModel(path: String, features: Int, expected: Int)
    case tooManyLessons(limit: Int)
    case exists(path: String)
    /// A photo that would teach noise: no content, no green, unlike leaves (its verdict or reason code).
    case notALeaf(source: String, code: String)
    case noFeatures(source: String)
    case pictureUnfit(source: String)
    case tooFewSamples(count: Int, folder: String)

    public var description: String {
        switch self {
        case .notFound(let path): return "no lessons at \(path): teach some with plantleaf teach add --class NAME PHOTO..."
        case .notALessonsFile(let path): return "\(path) is an SQLite file but not PlantLeaf's lessons: give another --lessons FILE"
        case .damaged(let path, let problem):
            return "the lessons file \(path) is damaged (\(problem)): restore it from an export, or give another --lessons FILE"
        case .storage(let error): return "the lessons file: \(error)"
        case .badName(let problem): return "\(problem): give --class a name of 1 to \(LessonsFile.maximumNameLength) characters"
        case .pictureTooLarge(let source, let bytes): return "\(source): its picture takes \(bytes) bytes, over \(LessonsFile.maximumPictureBytes)"
        case .wrongModel(let path, let features, let expected):
            return "\(path) holds lessons of a model with \(features) features, these have \(expected): teach with the model they were taught with"
        case .tooManyLessons(let limit): return "a lessons file holds at most \(limit) lessons: remove some first (plantleaf teach remove)"
        case .exists(let path): return "\(path) exists already: give a new file name to export to"
        case .notALeaf(let source, let code): return "\(source): not a leaf photo (\(code))"
        case .noFeatures(let source): return "\(source): the model gave no features"
        case .pictureUnfit(let source): return "\(source): its picture does not fit in 30 KB"
        case .tooFewSamples(let count, let folder): return "only \(count) sample leaves in \(folder) could be read: run make setup"
        }
    }
}
