/// Whether a result may be read as an answer (docs/verdicts.md): the model names one of its
/// classes for any input, so every result says whether that class is worth reading.
public enum Verdict: String, Sendable, CaseIterable {
    /// A leaf the model can speak about: its top class is the answer.
    case diagnosis
    /// Plant material in view, but the model is not confident (below the minimum score) or not
    /// stable (the picture mirrored left to right gets another class or falls below the minimum).
    case uncertain
    /// No plant material in view: too little of the picture is green tissue.
    case noLeaf = "no-leaf"
    /// The picture carries no content: dark, blown out or flat, or for a camera a frame whose
    /// readings repeat the previous frame's exactly (a stalled camera).
    case noPicture = "no-picture"
}
