/// Why the second opinion cannot run: its model or its leaf reference. Front ends report it once
/// and mark the check as skipped in every result, never as passed.
public enum SecondOpinionError: PlantLeafError {
    case model(RuntimeError)
    case reference(LeafReferenceError)
    /// No generalist model or no leaf reference was given.
    case notConfigured

    public var message: String {
        switch self {
        case .notConfigured: return "no generalist model and leaf reference are set up"
        case .model(let error): return "the generalist model cannot be used: \(error.message)"
        case .reference(let error): return error.message
        }
    }

    public var details: String? {
        switch self {
        case .model(let error): return error.details
        case .reference(let error): return error.details
        case .notConfigured: return nil
        }
    }
}
