import Foundation
@testable import PlantLeafKit
import PlantLeafTestSupport
import Testing

/// Builds /proc and /sys look-alikes in a temporary folder for MachineInfoReader.
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

@Suite struct MachineInfoReaderTests {
    @Test func readsARaspberryPi() {
        let system = FakeSystem.raspberryPi5()
        let info = system.reader.read()
        #expect(info.cpuModel == "4x Cortex-A76")
        #expect(info.board == "Raspberry Pi 5 Model B Rev 1.0")
        #expect(info.cpuHardware == MachineInfo.unknown)
        #expect(info.kernel == "6.6.31+rpt-rpi-2712")
        #expect(info.cores == 4)
        #expect(info.frequencies.map(\.cpu) == [0, 1, 2, 3])
        #expect(info.frequencies[0] == CoreFrequency(cpu: 0, governor: "ondemand", currentMHz: 1500, maxMHz: 2400))
        #expect(system.reader.temperatures() == [ThermalReading(zone: "thermal_zone0", type: "cpu-thermal", celsius: 83.15)])
        #expect(system.reader.loadAverage() == 0.08)
    }

    @Test func missingSysFilesReadAsUnknown() {
        let system = FakeSystem.raspberryPi5()
        system.remove("sys/devices/system/cpu/cpu1/cpufreq/scaling_cur_freq")
        system.remove("sys/devices/system/cpu/cpu2/cpufreq")
        system.remove("sys/class/thermal/thermal_zone0/type")
        let cores = system.reader.frequencies()
        #expect(cores[1] == CoreFrequency(cpu: 1, governor: "ondemand", currentMHz: nil, maxMHz: 2400))
        #expect(cores[2] == CoreFrequency(cpu: 2, governor: nil, currentMHz: nil, maxMHz: nil))
        #expect(system.reader.temperatures() == [ThermalReading(zone: "thermal_zone0", type: "unknown", celsius: 83.15)])
    }

    @Test func emptyRootsGiveUnknownsNotACrash() {
        let system = FakeSystem()
        let info = system.reader.read()
        #expect(info.kernel == "unknown")
        #expect(info.cpuModel == "unknown")
        #expect(info.board == "unknown")
        #expect(info.cores == nil)
        #expect(info.frequencies.isEmpty)
        #expect(system.reader.temperatures().isEmpty)
        #expect(system.reader.loadAverage() == nil)
        // The architecture comes from uname, which always answers.
        #expect(!info.architecture.isEmpty)
    }

    @Test func x86ModelNameAndDMIProduct() {
        let system = FakeSystem()
        system.write("proc/cpuinfo", "processor\t: 0\nmodel name\t: Intel(R) Core(TM) i5-8250U CPU @ 1.60GHz\n\nprocessor\t: 1\nmodel name\t: Intel(R) Core(TM) i5-8250U CPU @ 1.60GHz\n")
        system.write("sys/class/dmi/id/sys_vendor", "LENOVO\n")
        system.write("sys/class/dmi/id/product_name", "20KH002JGE\n")
        let info = system.reader.read()
        #expect(info.cpuModel == "Intel(R) Core(TM) i5-8250U CPU @ 1.60GHz")
        #expect(info.board == "LENOVO 20KH002JGE")
        #expect(info.cores == 2)  // no online list: the processors in cpuinfo
    }

    @Test func bigLittleCoresAndOlderKernelsHardwareLine() {
        let system = FakeSystem()
        let little = (0..<4).map { "processor\t: \($0)\nCPU implementer\t: 0x41\nCPU part\t: 0xd05\n" }
        let big = (4..<8).map { "processor\t: \($0)\nCPU implementer\t: 0x41\nCPU part\t: 0xd0b\n" }
        let unknown = "processor\t: 8\nCPU implementer\t: 0x51\nCPU part\t: 0x801\n"
        system.write("proc/cpuinfo", (little + big + [unknown]).joined(separator: "\n") + "\nHardware\t: BCM2835\n")
        system.write("sys/devices/system/cpu/online", "0-7,8\n")
        let info = system.reader.read()
        #expect(info.cpuModel == "4x Cortex-A55 + 4x Cortex-A76 + 1x ARM core (implementer 0x51, part 0x801)")
        #expect(info.cpuHardware == "BCM2835")
        #expect(info.cores == 9)
    }

    @Test func thermalZonesInNumericOrder() {
        let system = FakeSystem()
        for zone in [10, 2, 1] {
            system.write("sys/class/thermal/thermal_zone\(zone)/temp", "\(40_000 + zone)\n")
        }
        system.write("sys/class/thermal/cooling_device0/type", "fan\n")
        #expect(system.reader.temperatures().map(\.zone) == ["thermal_zone1", "thermal_zone2", "thermal_zone10"])
    }
}

@Suite struct BenchWarningsTests {
    @Test func warnsAboutGovernorHeatAndThrottling() {
        let system = FakeSystem.raspberryPi5()
        var conditions = ConditionLog()
        conditions.loadAverageBefore = 2.19
        conditions.frequenciesBefore = system.reader.frequencies()
        conditions.record(temperatures: system.reader.temperatures(), frequencies: conditions.frequenciesBefore)
        // Later, cpu2 has fallen to 1500 MHz from the 2400 it ran at.
        system.write("sys/devices/system/cpu/cpu2/cpufreq/scaling_cur_freq", "1500000\n")
        conditions.record(temperatures: [], frequencies: system.reader.frequencies())
        #expect(conditions.peakCelsius == 83.15)
        // cpu0 rose from 1500 MHz: not a drop.
        #expect(conditions.frequencyDrops == [FrequencyDrop(cpu: 2, fromMHz: 2400, toMHz: 1500)])

        let warnings = BenchWarnings.evaluate(machine: system.reader.read(), conditions: conditions)
        #expect(warnings.count == 4)
        #expect(warnings[0].hasPrefix("load average was 2.19 before the run"))
        #expect(warnings[1].hasPrefix("cpufreq governor is 'ondemand' on cpu0-3, not 'performance'"))
        #expect(warnings[1].contains("scaling_governor"))
        #expect(warnings[2].hasPrefix("SoC temperature reached 83.2 °C (above 80 °C)"))
        #expect(warnings[3].hasPrefix("cpu2 fell from 2400 MHz to 1500 MHz during the run"))
    }

    @Test func quietOnACoolBoardAtFullSpeed() {
        let system = FakeSystem.raspberryPi5(governor: "performance", currentKHz: [2_400_000, 2_400_000, 2_400_000, 2_400_000],
                                             milliCelsius: 55_000)
        var conditions = ConditionLog()
        conditions.loadAverageBefore = system.reader.loadAverage()
        conditions.frequenciesBefore = system.reader.frequencies()
        conditions.record(temperatures: system.reader.temperatures(), frequencies: conditions.frequenciesBefore)
        // A 5 % dip is scheduling noise, below the 10 % that counts as throttling.
        system.write("sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "2280000\n")
        conditions.record(temperatures: system.reader.temperatures(), frequencies: system.reader.frequencies())
        #expect(BenchWarnings.evaluate(machine: system.reader.read(), conditions: conditions, threadCounts: [1, 4]).isEmpty)
    }

    @Test func warnsWhenThreadsOutnumberCores() {
        let machine = FakeSystem.raspberryPi5(governor: "performance").reader.read()
        let warnings = BenchWarnings.evaluate(machine: machine, conditions: ConditionLog(), threadCounts: [1, 8])
        #expect(warnings == ["8 threads on 4 cores: the threads share cores, so that result measures contention, not the board; "
                             + "use --threads values up to 4"])
    }

    @Test func coreListsAreCompact() {
        #expect(BenchWarnings.cpuList([3, 1, 2, 0]) == "cpu0-3")
        #expect(BenchWarnings.cpuList([0, 2, 4, 5]) == "cpu0,2,4-5")
    }
}
