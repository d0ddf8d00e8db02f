/// What the generalist check gave for one result: every output carries it, so a check that could
/// not run is reported as skipped, never passed in silence.
public enum SecondOpinionReading: Sendable, Equatable {
    /// The check is not among those that run.
    case notRun
    /// How like leaf photos the picture looks to the generalist, 0...1.
    case leafLikeness(Double)
    /// The check should have run but could not: its model or reference is missing or damaged.
    case skipped(reason: String)

    /// The likeness, when measured.
    public var leafLikeness: Double? {
        if case .leafLikeness(let value) = self { return value }
        return nil
    }

    /// Why it was skipped, when it was.
    public var skippedReason: String? {
        if case .skipped(let reason) = self { return reason }
        return nil
    }
}
