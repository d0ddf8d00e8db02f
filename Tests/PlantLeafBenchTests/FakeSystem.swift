import Foundation
@testable import PlantLeafCore
@testable import PlantLeafBench
import PlantLeafTestSupport

/// Builds /proc and /sys look-alikes in a temporary folder for MachineInfoReader. A test removes
/// the folder, `root`, with TestPaths.removeTemporaryDirectory.
struct FakeSystem {
    let root = TestPaths.temporaryDirectory("fakesystem")
    var proc: String { root + "/proc" }
    var sys: String { root + "/sys" }
    var reader: MachineInfoReader { MachineInfoReader(procRoot: proc, sysRoot: sys) }

    func write(_ relativePath: String, _ text: String) {
        let path = root + "/" + relativePath
        try! FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        TestImages.write(Array(text.utf8), to: path)
    }

    func remove(_ relativePath: String) {
        try! FileManager.default.removeItem(atPath: root + "/" + relativePath)
    }

    /// A Raspberry Pi 5 as its kernel shows it: four Cortex-A76 cores, the device-tree model.
    static func raspberryPi5(governor: String = "ondemand", currentKHz: [Int] = [1_500_000, 2_400_000, 2_400_000, 2_400_000],
                             milliCelsius: Int = 83_150) -> FakeSystem {
        let system = FakeSystem()
        let processors = (0..<4).map { "processor\t: \($0)\nBogoMIPS\t: 108.00\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU part\t: 0xd0b\n" }
        system.write("proc/cpuinfo", processors.joined(separator: "\n") + "\nRevision\t: d04170\nModel\t\t: Raspberry Pi 5 Model B Rev 1.0\n")
        system.write("proc/device-tree/model", "Raspberry Pi 5 Model B Rev 1.0\u{0}")
        system.write("proc/sys/kernel/osrelease", "6.6.31+rpt-rpi-2712\n")
        system.write("sys/devices/system/cpu/online", "0-3\n")
        for (cpu, khz) in currentKHz.enumerated() {
            system.write("sys/devices/system/cpu/cpu\(cpu)/cpufreq/scaling_governor", governor + "\n")
            system.write("sys/devices/system/cpu/cpu\(cpu)/cpufreq/scaling_cur_freq", "\(khz)\n")
            system.write("sys/devices/system/cpu/cpu\(cpu)/cpufreq/cpuinfo_max_freq", "2400000\n")
        }
        system.write("sys/class/thermal/thermal_zone0/type", "cpu-thermal\n")
        system.write("sys/class/thermal/thermal_zone0/temp", "\(milliCelsius)\n")
        system.write("proc/loadavg", "0.08 0.12 0.10 1/250 1234\n")
        return system
    }
}
