/// What a reading means to a grower, the four things the history tells apart by colour: a healthy
/// leaf, a problem (a diagnosis of a class that is not a healthy one), a leaf PlantLeaf is not
/// sure of, and nothing to see (no leaf or no picture: the reading says nothing about the plant).
/// The raw values are the pages' class names and the catalogue's keys (`meaning.RAW.name`).
public enum ReadingMeaning: String, CaseIterable, Sendable {
    case healthy, problem, notSure = "not-sure", nothing

    /// The meaning of a reading of `verdict` whose best class is `label`.
    public init(verdict: Verdict, label: String?) {
        switch verdict {
        case .diagnosis: self = Labels.isProblem(verdict: verdict, label: label) ? .problem : .healthy
        case .uncertain: self = .notSure
        case .noLeaf, .noPicture: self = .nothing
        }
    }

    /// The order of what matters more, when a period's readings tie: a problem first.
    public var weight: Int {
        switch self {
        case .problem: 3
        case .notSure: 2
        case .healthy: 1
        case .nothing: 0
        }
    }

    /// What most of `counts` mean (ties to what matters more); nil when there are none.
    public static func mostOf(_ counts: [ReadingMeaning: Int]) -> ReadingMeaning? {
        counts.filter { $0.value > 0 }.max { ($0.value, $0.key.weight) < ($1.value, $1.key.weight) }?.key
    }
}
