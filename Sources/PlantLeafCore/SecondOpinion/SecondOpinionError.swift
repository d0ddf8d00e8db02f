/// Why the second opinion cannot run: its model or its leaf reference. Front ends report it once
/// and mark the check as skipped in every result, never as passed.
public enum SecondOpinionError: WordedError {
    case model(RuntimeError)
    case reference(LeafReferenceError)
    /// No generalist model or no leaf reference was given.
    case notConfigured

    public func message(in catalogue: Catalogue) -> String {
        switch self {
        case .notConfigured: return catalogue["error.second-opinion.not-configured"]
        case .model(let error): return catalogue.text("error.second-opinion.model", ["problem": error.message(in: catalogue)])
        case .reference(let error): return error.message(in: catalogue)
        }
    }

    public func details(in catalogue: Catalogue) -> String? {
        switch self {
        case .model(let error): return error.details(in: catalogue)
        case .reference(let error): return error.details(in: catalogue)
        case .notConfigured: return nil
        }
    }
}
