/// One core's frequency scaling state; nil where the kernel exposes no cpufreq file.
public struct CoreFrequency: Sendable, Equatable {
    public var cpu: Int
    public var governor: String?
    public var currentMHz: Double?
    public var maxMHz: Double?
}
