/// Who reads a result's advice: someone who took a photo and sent it (classify, an upload),
/// who can take another; or whoever watches a fixed camera, which cannot move closer to a leaf
/// but can be checked, and whose plant can be walked to. The catalogue words advice for each.
public enum AdviceAudience: String, Sendable, CaseIterable {
    case photo, camera
}
