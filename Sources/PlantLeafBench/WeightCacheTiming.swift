/// What the weight cache saves: a model load + compile without it (cold: what a process with no
/// cache, or a new model, costs) and one reading it (warm), on the first thread count.
public struct WeightCacheTiming: Sendable {
    public var folder: String
    /// What the first compile found: "built", "loaded" or "unavailable: REASON".
    public var state: String
    public var coldMilliseconds: Double
    /// nil when the cache could not be used.
    public var warmMilliseconds: Double?
}
