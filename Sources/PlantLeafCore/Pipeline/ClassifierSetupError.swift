/// Why the classifier could not be set up: the runtime/model, or the label file.
public enum ClassifierSetupError: WordedError {
    case runtime(RuntimeError)
    case labels(LabelError)

    public func message(in catalogue: Catalogue) -> String {
        switch self {
        case .runtime(let error): return error.message(in: catalogue)
        case .labels(let error): return error.message(in: catalogue)
        }
    }

    public func details(in catalogue: Catalogue) -> String? {
        switch self {
        case .runtime(let error): return error.details(in: catalogue)
        case .labels(let error): return error.details(in: catalogue)
        }
    }
}
