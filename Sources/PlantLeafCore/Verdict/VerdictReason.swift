/// Why a result is not a diagnosis, named by a stable slug for machines (JSON "reason", the CSV
/// column, MQTT's attributes) and worded for growers with what to do next (`advice`). Each is the
/// reading that decided: the first check that failed, in the order `VerdictPolicy` runs them.
public enum VerdictReason: String, Sendable, CaseIterable {
    // no-picture
    case dark, blownOut = "blown-out", flat, drawn, repeatedFrame = "repeated-frame"
    /// Neighbouring pixels as unlike as random ones: noise, not a scene.
    case noise
    // no-leaf
    /// Too little of the picture is green tissue, even after balancing a colour cast.
    case noGreen = "no-green"
    /// The generalist model sees something far from every leaf photo (an animal, food, a pattern).
    case unlikeLeaves = "unlike-leaves"
    // uncertain
    /// The picture is far smaller than the model's input: there is too little in it to read.
    case tooSmall = "too-small"
    /// A JPEG compressed so hard that its blocks hide what is in it: it would read as no
    /// picture or no leaf, but that is the compression's doing.
    case tooCompressed = "too-compressed"
    /// Only the middle square of a long, narrow picture is read, and it holds no leaf.
    case offCentre = "off-centre"
    /// The generalist sees something between leaf photos and other things.
    case notClearlyLeaf = "not-clearly-leaf"
    /// Green runs off every side: a field scene, a plant or a canopy, not one leaf.
    case fieldScene = "field-scene"
    /// The model's top score is below the minimum.
    case lowScore = "low-score"
    /// The picture mirrored gets another class or a low score.
    case unstable
    /// The grower's lessons find the picture as close to two of their taught classes.
    case closeTaughtClasses = "close-taught-classes"

}
