@testable import PlantLeafCore
@testable import PlantLeafBench
import PlantLeafTestSupport
import Testing

@Suite struct BenchWarningsTests {
    @Test func warnsAboutGovernorHeatAndThrottling() {
        let system = FakeSystem.raspberryPi5()
        defer { TestPaths.removeTemporaryDirectory(system.root) }
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
        defer { TestPaths.removeTemporaryDirectory(system.root) }
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
        let system = FakeSystem.raspberryPi5(governor: "performance")
        defer { TestPaths.removeTemporaryDirectory(system.root) }
        let machine = system.reader.read()
        let warnings = BenchWarnings.evaluate(machine: machine, conditions: ConditionLog(), threadCounts: [1, 8])
        #expect(warnings == ["8 threads on 4 cores: the threads share cores, so that result measures contention, not the board; "
                             + "measure with at most 4 threads"])
    }

    @Test func coreListsAreCompact() {
        #expect(BenchWarnings.cpuList([3, 1, 2, 0]) == "cpu0-3")
        #expect(BenchWarnings.cpuList([0, 2, 4, 5]) == "cpu0,2,4-5")
    }
}
