import PlantLeafCore
import PlantLeafSupport
/// The conditions that make a benchmark's numbers untrustworthy, each with what to do about it on the machine.
public enum BenchWarnings {
    /// Above this the SoCs PlantLeaf targets start to throttle (a Raspberry Pi 4/5 soft-limits at 80 °C).
    public static let hotCelsius = 80.0
    /// A 1-minute load average at least this high before the run means other work was running.
    public static let busyLoadAverage = 1.0
    /// A core running this much below the highest frequency it showed earlier counts as throttled.
    public static let droppedFraction = 0.10

    /// One line per condition found: more threads than cores (or than the CPUs `pinned` to), a
    /// busy machine, a governor that is not 'performance', a hot SoC, or a core whose clock fell
    /// during the run.
    public static func evaluate(machine: MachineInfo, conditions: ConditionLog, threadCounts: [Int] = [],
                                pinned: CPUSet? = nil) -> [String] {
        var warnings: [String] = []
        if let pinned, let most = threadCounts.max(), most > pinned.cpus.count {
            let count = pinned.cpus.count
            warnings.append("\(most) threads on the \(count) CPU\(count == 1 ? "" : "s") of --cpus \(pinned): the threads share "
                + "cores, so that result measures contention, not the board; measure with at most \(count) threads or pin more CPUs")
        } else if pinned == nil, let cores = machine.cores, let most = threadCounts.max(), most > cores {
            warnings.append("\(most) threads on \(cores) cores: the threads share cores, so that result measures contention, "
                + "not the board; measure with at most \(cores) threads")
        }
        let cores = conditions.frequenciesBefore.isEmpty ? machine.frequencies : conditions.frequenciesBefore
        var governors: [(governor: String, cpus: [Int])] = []
        for core in cores {
            guard let governor = core.governor, governor != "performance" else { continue }
            if let index = governors.firstIndex(where: { $0.governor == governor }) {
                governors[index].cpus.append(core.cpu)
            } else {
                governors.append((governor, [core.cpu]))
            }
        }
        if let load = conditions.loadAverageBefore, load >= busyLoadAverage {
            warnings.append("load average was \(DecimalText.fixed(load, decimals: 2)) before the run: other processes compete for the CPU "
                + "and inflate the latencies; stop other work, wait for the load to fall below \(DecimalText.fixed(busyLoadAverage, decimals: 1)), "
                + "and benchmark again")
        }
        for (governor, cpus) in governors {
            warnings.append("cpufreq governor is '\(governor)' on \(cpuList(cpus)), not 'performance': the clock follows the load, "
                + "so latencies vary from run to run; run `echo performance | sudo tee /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor` "
                + "and benchmark again")
        }
        if let peak = conditions.peakCelsius, peak > hotCelsius {
            warnings.append("SoC temperature reached \(DecimalText.fixed(peak, decimals: 1)) °C (above \(Int(hotCelsius)) °C): the board "
                + "throttles when hot; fit a heatsink or fan, let it cool to idle temperature, and benchmark again")
        }
        for drop in conditions.frequencyDrops where drop.fraction > droppedFraction {
            warnings.append("cpu\(drop.cpu) fell from \(Int(drop.fromMHz.rounded())) MHz to \(Int(drop.toMHz.rounded())) MHz during the run "
                + "(throttling: heat, power supply or governor); cool the board, use a supply that meets its rating and the "
                + "'performance' governor, and benchmark again")
        }
        return warnings
    }

    /// "cpu0-3", "cpu0,2": compact names for a set of cores.
    static func cpuList(_ cpus: [Int]) -> String { "cpu\(CPUSet(cpus))" }
}
