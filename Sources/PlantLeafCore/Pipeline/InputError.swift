/// Why an image (`Cause` is `ImageError`) or camera frame (`FrameError`) could not become model
/// input: the input itself, or the runtime.
public enum InputError<Cause: PlantLeafError>: PlantLeafError {
    case unusable(Cause)
    case runtime(RuntimeError)

    public var message: String {
        switch self {
        case .unusable(let error): return error.message
        case .runtime(let error): return error.message
        }
    }

    public var details: String? {
        switch self {
        case .unusable(let error): return error.details
        case .runtime(let error): return error.details
        }
    }
}
