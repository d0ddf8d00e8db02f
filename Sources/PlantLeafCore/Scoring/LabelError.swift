/// Why a label file cannot name the model's classes.
public enum LabelError: PlantLeafError {
    case unreadable(path: String, reason: String)
    case notText(path: String)
    case empty(path: String)
    case countMismatch(path: String, labels: Int, classes: Int)

    public var message: String {
        switch self {
        case .unreadable(let path, _): return "cannot read labels \(path)"
        case .notText(let path): return "labels \(path) is not UTF-8 text"
        case .empty(let path): return "labels \(path) names no classes"
        case .countMismatch(let path, let labels, let classes):
            return "labels \(path) has \(labels) names but the model outputs \(classes) classes"
        }
    }

    public var details: String? {
        if case .unreadable(_, let reason) = self { return reason }
        return nil
    }
}
