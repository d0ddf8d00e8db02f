/// The machine's load, frequencies and temperatures around and between runs, for the warnings.
public struct ConditionLog: Sendable, Equatable {
    /// The 1-minute load average just before the benchmark started: other work competing for the CPU.
    public var loadAverageBefore: Double?
    public var temperaturesBefore: [ThermalReading] = []
    public var temperaturesAfter: [ThermalReading] = []
    /// The hottest reading of any zone at any sample, before, during or after.
    public var peakCelsius: Double?
    public var frequenciesBefore: [CoreFrequency] = []
    public var frequenciesAfter: [CoreFrequency] = []
    /// Per core, the largest fall of the current frequency below the highest seen earlier in the run.
    public var frequencyDrops: [FrequencyDrop] = []
    /// The highest current frequency seen so far per core, which later samples are compared with.
    private var highestMHz: [Int: Double] = [:]

    /// An empty log, before the first sample.
    public init() {}

    /// Takes in one sample: updates the peak temperature and each core's largest frequency drop.
    public mutating func record(temperatures: [ThermalReading], frequencies: [CoreFrequency]) {
        for reading in temperatures where reading.celsius > (peakCelsius ?? -Double.infinity) { peakCelsius = reading.celsius }
        for core in frequencies {
            guard let current = core.currentMHz else { continue }
            let highest = max(highestMHz[core.cpu] ?? current, current)
            highestMHz[core.cpu] = highest
            guard current < highest else { continue }
            let drop = FrequencyDrop(cpu: core.cpu, fromMHz: highest, toMHz: current)
            if let existing = frequencyDrops.firstIndex(where: { $0.cpu == core.cpu }) {
                if drop.fraction > frequencyDrops[existing].fraction { frequencyDrops[existing] = drop }
            } else {
                frequencyDrops.append(drop)
            }
        }
    }
}
