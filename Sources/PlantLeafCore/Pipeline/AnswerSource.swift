/// Where a result's top class came from: the model's own 38 (or its labels') classes, or the
/// lessons a grower taught. Machine outputs carry the raw value; it never changes with language.
public enum AnswerSource: String, Sendable, Equatable {
    case model
    case lessons
}
