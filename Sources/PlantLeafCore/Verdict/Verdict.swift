/// Whether a result may be read as an answer (docs/verdicts.md): the model names one of its
/// classes for any input, so every result says whether that class is worth reading.
public enum Verdict: String, Sendable, CaseIterable {
    /// A leaf the model can speak about: its top class is the answer.
    case diagnosis
    /// Not an answer, and not a clear refusal either: the picture may hold a leaf, but one the
    /// model cannot be trusted on (a field scene, a picture too small, or one the generalist
    /// finds between leaves and other things), or the model is not confident (below the minimum
    /// score) or not stable (the picture mirrored gets another class). `VerdictReason` says which.
    case uncertain
    /// Not a leaf photo: too little of the picture is green tissue, or the generalist model
    /// finds it far from every leaf photo.
    case noLeaf = "no-leaf"
    /// The picture carries no content: dark, blown out or flat, or for a camera a frame whose
    /// readings repeat the previous frame's exactly (a stalled camera).
    case noPicture = "no-picture"
}
