import PlantLeafCore
import Glibc
import PlantLeafSupport

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
                           host: stringFromCField(system.nodename),
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
