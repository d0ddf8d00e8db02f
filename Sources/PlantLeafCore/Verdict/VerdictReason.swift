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

    /// What the grower reads: what is wrong, then what to do (English; the same words on every front end).
    public var advice: String {
        switch self {
        case .dark: return "The picture is too dark. Take it in daylight or turn a light on."
        case .blownOut: return "The picture is too bright (blown out). Move out of direct sun or away from the lamp."
        case .flat: return "The picture shows almost nothing (fog, a lens cap, a blank wall). Point the camera at one leaf."
        case .drawn: return "This looks like a drawing or a test pattern, not a photo. Take a photo of a real leaf."
        case .repeatedFrame: return "The camera keeps sending the same frame. Check the camera and its cable."
        case .noise: return "The picture is only noise. Check the camera, or send a real photo of one leaf."
        case .noGreen: return "No leaf found in the picture. Photograph one leaf so that it fills most of the picture."
        case .unlikeLeaves: return "This does not look like a leaf photo. Photograph one leaf on a plain background."
        case .tooSmall: return "The picture is too small to read. Send the photo at full size, or move closer to the leaf."
        case .tooCompressed: return "The photo is too compressed to read. Send it at full quality, or take it again."
        case .offCentre: return "Only the middle of this long picture is read, and no leaf is there. Put the leaf in the middle."
        case .notClearlyLeaf: return "This may not be a leaf photo. Photograph one leaf on a plain background (paper, a board), in daylight."
        case .fieldScene:
            return "This looks like a plant or a field, not one leaf. Pick one leaf, lay it on a plain background "
                + "(paper, a board) so it fills most of the picture, and photograph it in daylight."
        case .lowScore: return "The model is not sure. Photograph one leaf closer, on a plain background, in daylight."
        case .unstable: return "The answer changes with small changes to the picture. Hold the camera still and retake the photo."
        }
    }
}
