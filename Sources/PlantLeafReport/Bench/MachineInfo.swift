import PlantLeafCore
import Glibc

/// One core's frequency scaling state; nil where the kernel exposes no cpufreq file.
public struct CoreFrequency: Sendable, Equatable {
    public var cpu: Int
    public var governor: String?
    public var currentMHz: Double?
    public var maxMHz: Double?
}

/// One /sys/class/thermal zone's temperature.
public struct ThermalReading: Sendable, Equatable {
    public var zone: String
    public var type: String
    public var celsius: Double
}

/// What the benchmark records about the machine. Text the system does not provide is "unknown".
public struct MachineInfo: Sendable, Equatable {
    public static let unknown = "unknown"

    public var architecture: String
    public var kernel: String
    /// x86: the `model name`; ARM: the cores named from `CPU implementer`/`CPU part`, e.g. "4x Cortex-A76".
    public var cpuModel: String
    /// ARM's `Hardware` line in /proc/cpuinfo (the SoC on older kernels), else "unknown".
    public var cpuHardware: String
    /// The device-tree `model` ("Raspberry Pi 5 Model B Rev 1.0"), cpuinfo's `Model`, or the DMI product.
    public var board: String
    public var cores: Int?
    public var frequencies: [CoreFrequency]
}

/// Reads machine facts from /proc and /sys. The roots are parameters so tests can point the
/// reader at folders they make; any file that is missing or unreadable reads as unknown.
public struct MachineInfoReader: Sendable {
    public var procRoot: String
    public var sysRoot: String

    /// A reader of this machine, or of a fake /proc and /sys laid out under other folders.
    public init(procRoot: String = "/proc", sysRoot: String = "/sys") {
        self.procRoot = procRoot
        self.sysRoot = sysRoot
    }

    /// Everything known about the machine now: CPU, board, cores, kernel, frequencies and sensors.
    public func read() -> MachineInfo {
        let cpuinfo = CPUInfo(text: readText("\(procRoot)/cpuinfo") ?? "")
        var system = utsname()
        uname(&system)
        let cores = onlineCPUs().map(\.count) ?? (cpuinfo.processorCount > 0 ? cpuinfo.processorCount : nil)
        return MachineInfo(architecture: stringFromCField(system.machine),
                           kernel: readText("\(procRoot)/sys/kernel/osrelease") ?? MachineInfo.unknown,
                           cpuModel: cpuinfo.modelName ?? cpuinfo.armCoreSummary ?? MachineInfo.unknown,
                           cpuHardware: cpuinfo.first("Hardware") ?? MachineInfo.unknown,
                           board: boardName(cpuinfo: cpuinfo),
                           cores: cores,
                           frequencies: frequencies())
    }

    /// Every online core's governor and current/maximum frequency, read now.
    public func frequencies() -> [CoreFrequency] {
        let cpus = onlineCPUs() ?? []
        return cpus.map { cpu in
            let folder = "\(sysRoot)/devices/system/cpu/cpu\(cpu)/cpufreq"
            return CoreFrequency(cpu: cpu, governor: readText("\(folder)/scaling_governor"),
                                 currentMHz: readNumber("\(folder)/scaling_cur_freq").map { $0 / 1000 },
                                 maxMHz: readNumber("\(folder)/cpuinfo_max_freq").map { $0 / 1000 })
        }
    }

    /// Every thermal zone that reports a temperature (the kernel gives millidegrees Celsius).
    public func temperatures() -> [ThermalReading] {
        let folder = "\(sysRoot)/class/thermal"
        return directoryEntries(folder).filter { $0.hasPrefix("thermal_zone") }.compactMap { zone in
            guard let milli = readNumber("\(folder)/\(zone)/temp") else { return nil }
            return ThermalReading(zone: zone, type: readText("\(folder)/\(zone)/type") ?? MachineInfo.unknown, celsius: milli / 1000)
        }
    }

    /// The 1-minute load average from loadavg (runnable tasks, averaged); nil when unreadable.
    public func loadAverage() -> Double? {
        readText("\(procRoot)/loadavg")?.split(separator: " ").first.flatMap { Double($0) }
    }

    /// The CPUs listed in devices/system/cpu/online ("0-3,6"), in order; nil when unreadable.
    func onlineCPUs() -> [Int]? {
        guard let text = readText("\(sysRoot)/devices/system/cpu/online") else { return nil }
        var cpus: [Int] = []
        for range in text.split(separator: ",") {
            let bounds = range.split(separator: "-").compactMap { Int($0.trimmingWhitespace()) }
            guard let first = bounds.first, let last = bounds.last, bounds.count <= 2, first <= last else { return nil }
            cpus.append(contentsOf: first...last)
        }
        return cpus.isEmpty ? nil : cpus
    }

    private func boardName(cpuinfo: CPUInfo) -> String {
        for path in ["\(procRoot)/device-tree/model", "\(sysRoot)/firmware/devicetree/base/model"] {
            if let model = readText(path) { return model }
        }
        if let model = cpuinfo.first("Model") { return model }
        let product = [readText("\(sysRoot)/class/dmi/id/sys_vendor"), readText("\(sysRoot)/class/dmi/id/product_name")].compactMap { $0 }
        return product.isEmpty ? MachineInfo.unknown : product.joined(separator: " ")
    }

    private func readNumber(_ path: String) -> Double? {
        readText(path).flatMap { Double($0) }
    }

    /// A small system file's text without surrounding whitespace or the NUL the device tree ends
    /// strings with; nil when missing, unreadable or empty. /proc files report size 0, so this
    /// reads to the end rather than trusting the size.
    func readText(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let result = try? SystemCall.retryingInterrupts { chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) } }
            guard let count = result else { return nil }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        let text = String(decoding: bytes.filter { $0 != 0 }, as: UTF8.self).trimmingWhitespace()
        return text.isEmpty ? nil : text
    }

    private func directoryEntries(_ path: String) -> [String] {
        guard let handle = opendir(path) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = stringFromCField(entry.pointee.d_name)
            if !name.hasPrefix(".") { names.append(name) }
        }
        // thermal_zone10 after thermal_zone9.
        return names.sorted { ($0.count, $0) < ($1.count, $1) }
    }
}

/// The `key : value` lines of /proc/cpuinfo.
struct CPUInfo {
    private var entries: [(key: String, value: String)] = []

    init(text: String) {
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            entries.append((String(line[..<colon]).trimmingWhitespace(), String(line[line.index(after: colon)...]).trimmingWhitespace()))
        }
    }

    func first(_ key: String) -> String? {
        entries.first { $0.key == key && !$0.value.isEmpty }?.value
    }

    func all(_ key: String) -> [String] {
        entries.filter { $0.key == key }.map(\.value)
    }

    var processorCount: Int { all("processor").count }

    var modelName: String? { first("model name") }

    /// "4x Cortex-A76", or "4x Cortex-A55 + 4x Cortex-A76" on big.LITTLE chips, from each
    /// processor's implementer and part numbers; nil when cpuinfo has none (not ARM).
    var armCoreSummary: String? {
        let implementers = all("CPU implementer"), parts = all("CPU part")
        guard !parts.isEmpty else { return nil }
        var counts: [(name: String, count: Int)] = []
        for (index, part) in parts.enumerated() {
            let implementer = index < implementers.count ? implementers[index] : implementers.last ?? ""
            let name = ARMCores.name(implementer: implementer, part: part)
            if let existing = counts.firstIndex(where: { $0.name == name }) {
                counts[existing].count += 1
            } else {
                counts.append((name, 1))
            }
        }
        return counts.map { "\($0.count)x \($0.name)" }.joined(separator: " + ")
    }
}

/// Names for the `CPU implementer`/`CPU part` pairs of the cores ARM boards commonly carry.
enum ARMCores {
    static let names: [String: String] = [
        "0x41/0xd03": "Cortex-A53", "0x41/0xd04": "Cortex-A35", "0x41/0xd05": "Cortex-A55",
        "0x41/0xd07": "Cortex-A57", "0x41/0xd08": "Cortex-A72", "0x41/0xd09": "Cortex-A73",
        "0x41/0xd0a": "Cortex-A75", "0x41/0xd0b": "Cortex-A76", "0x41/0xd0c": "Neoverse-N1",
        "0x41/0xd0d": "Cortex-A77", "0x41/0xd40": "Neoverse-V1", "0x41/0xd41": "Cortex-A78",
        "0x41/0xd42": "Cortex-A78AE", "0x41/0xd44": "Cortex-X1", "0x41/0xd46": "Cortex-A510",
        "0x41/0xd47": "Cortex-A710", "0x41/0xd48": "Cortex-X2", "0x41/0xd49": "Neoverse-N2",
        "0x41/0xd4b": "Cortex-A78C", "0x41/0xd4f": "Neoverse-V2", "0x41/0xd80": "Cortex-A520",
        "0x41/0xd81": "Cortex-A720", "0x4e/0x004": "NVIDIA Carmel",
    ]

    /// The core's name, or the raw numbers when the pair is not in the table.
    static func name(implementer: String, part: String) -> String {
        names["\(implementer.lowercased())/\(part.lowercased())"] ?? "ARM core (implementer \(implementer), part \(part))"
    }
}
