/// Why a label file cannot name the model's classes.
public enum LabelError: WordedError {
    case unreadable(path: String, reason: FileReadError)
    case notText(path: String)
    case empty(path: String)
    case countMismatch(path: String, labels: Int, classes: Int)

    public func message(in catalogue: Catalogue) -> String {
        switch self {
        case .unreadable(let path, _): return catalogue.text("error.labels.unreadable", ["path": path])
        case .notText(let path): return catalogue.text("error.labels.not-text", ["path": path])
        case .empty(let path): return catalogue.text("error.labels.empty", ["path": path])
        case .countMismatch(let path, let labels, let classes):
            return catalogue.text("error.labels.count-mismatch", ["path": path, "labels": String(labels), "classes": String(classes)])
        }
    }

    /// Why the file cannot be read.
    public func details(in catalogue: Catalogue) -> String? {
        if case .unreadable(_, let reason) = self { return reason.message(in: catalogue) }
        return nil
    }
}
