/// The stages timed on every run, in pipeline order, named as in `StageTimings`; `endToEnd`
/// spans all of them. The image's bytes are in memory, so there is no read stage.
public enum BenchStage: String, CaseIterable, Sendable {
    case prepare
    case invoke
    case postprocess
    /// The generalist check's model on the same picture; absent when the check is skipped.
    case generalist
    case endToEnd = "end_to_end"
    /// The decoder alone on the same bytes at the same DCT scale, its rows thrown away: the
    /// floor `prepare` is measured against. Timed after, and not part of, end to end.
    case decoderAlone = "decoder_alone"

    /// The name used in the text report.
    public var title: String {
        switch self {
        case .prepare, .invoke, .postprocess, .generalist: return rawValue
        case .endToEnd: return "end to end"
        case .decoderAlone: return "decoder alone"
        }
    }
}
