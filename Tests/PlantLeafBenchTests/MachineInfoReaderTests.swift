@testable import PlantLeafCore
@testable import PlantLeafBench
import PlantLeafTestSupport
import Testing

@Suite struct MachineInfoReaderTests {
    @Test func readsARaspberryPi() {
        let system = FakeSystem.raspberryPi5()
        defer { TestPaths.removeTemporaryDirectory(system.root) }
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
        defer { TestPaths.removeTemporaryDirectory(system.root) }
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
        defer { TestPaths.removeTemporaryDirectory(system.root) }
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
        defer { TestPaths.removeTemporaryDirectory(system.root) }
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
        defer { TestPaths.removeTemporaryDirectory(system.root) }
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
        defer { TestPaths.removeTemporaryDirectory(system.root) }
        for zone in [10, 2, 1] {
            system.write("sys/class/thermal/thermal_zone\(zone)/temp", "\(40_000 + zone)\n")
        }
        system.write("sys/class/thermal/cooling_device0/type", "fan\n")
        #expect(system.reader.temperatures().map(\.zone) == ["thermal_zone1", "thermal_zone2", "thermal_zone10"])
    }
}
