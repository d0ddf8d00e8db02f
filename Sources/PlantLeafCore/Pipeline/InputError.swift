import PlantLeafSupport

/// Why an image (`Cause` is `ImageError`) or camera frame (`FrameError`) could not become model
/// input: the input itself, or the runtime.
public enum InputError<Cause: PlantLeafError>: WordedError {
    case unusable(Cause)
    case runtime(RuntimeError)

    /// A cause with no catalogue words yet reads in English.
    public func message(in catalogue: Catalogue) -> String {
        switch self {
        case .unusable(let error): return (error as? any WordedError)?.message(in: catalogue) ?? error.message
        case .runtime(let error): return error.message(in: catalogue)
        }
    }

    public func details(in catalogue: Catalogue) -> String? {
        switch self {
        case .unusable(let error): return (error as? any WordedError).map { $0.details(in: catalogue) } ?? error.details
        case .runtime(let error): return error.details(in: catalogue)
        }
    }
}
