/// A verdict and, when it is not a diagnosis, the reading that decided it.
public struct Judgement: Sendable, Equatable {
    public var verdict: Verdict
    public var reason: VerdictReason?

    public init(verdict: Verdict, reason: VerdictReason?) {
        self.verdict = verdict
        self.reason = reason
    }
}
