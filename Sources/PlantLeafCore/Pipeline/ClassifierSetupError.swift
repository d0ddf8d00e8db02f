/// Why the classifier could not be set up: the runtime/model, or the label file.
public enum ClassifierSetupError: PlantLeafError {
    case runtime(RuntimeError)
    case labels(LabelError)

    public var message: String {
        switch self {
        case .runtime(let error): return error.message
        case .labels(let error): return error.message
        }
    }

    public var details: String? {
        switch self {
        case .runtime(let error): return error.details
        case .labels(let error): return error.details
        }
    }
}
