/// A core's clock falling during a run: from the highest frequency seen to a lower one.
public struct FrequencyDrop: Sendable, Equatable {
    public var cpu: Int
    public var fromMHz: Double
    public var toMHz: Double

    /// How far the frequency fell, as a fraction of where it was (0.25 = a quarter lower).
    public var fraction: Double { fromMHz > 0 ? (fromMHz - toMHz) / fromMHz : 0 }
}
