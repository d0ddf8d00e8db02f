@testable import PlantLeafCore
@testable import PlantLeafBench
import PlantLeafSupport
import Testing

/// The bench report's fixed-decimal numbers, ratios and latency histogram rows.
@Suite struct BenchTextTests {
    @Test func fixedDecimals() {
        #expect(DecimalText.fixed(3.91, decimals: 3) == "3.910")
        #expect(DecimalText.fixed(2, decimals: 3) == "2.000")
        #expect(DecimalText.fixed(0.0004, decimals: 3) == "0.000")
        #expect(DecimalText.fixed(12.3456, decimals: 1) == "12.3")
        #expect(DecimalText.fixed(.nan, decimals: 3) == "-")
        #expect(BenchText.ratio(1.0 / 3) == "0.33x")
    }

    /// Every axis is finite with a bounded number of ticks, whatever the highest value.
    @Test(arguments: [0, -1, Double.leastNonzeroMagnitude, 1e-300, 0.0001, 1, 2, 8.64e11, 1e300, Double.greatestFiniteMagnitude, .infinity, .nan])
    func axisIsBoundedForAnyValue(highest: Double) {
        let axis = BenchHTML.axis(highest: highest)
        #expect(axis.ticks.count >= 2 && axis.ticks.count <= BenchHTML.mostTicks)
        #expect(axis.step > 0 && axis.step.isFinite && axis.top.isFinite)
        #expect(axis.ticks.allSatisfy { $0.isFinite })
        if highest > 0, highest.isFinite { #expect(axis.top >= highest) }
    }

    /// Dots at one height are set side by side; dots already apart stay where they are.
    @Test func overlappingDotsAreSetSideBySide() {
        #expect(BenchHTML.sideBySideOffsets([147, 147, 147]) == [-9, 0, 9])
        #expect(BenchHTML.sideBySideOffsets([10, 100]) == [0, 0])
        #expect(BenchHTML.sideBySideOffsets([100, 10, 103]) == [-4.5, 0, 4.5])
    }

    @Test func reportedTimesUnderAMicrosecondSaySo() {
        #expect(BenchText.reportedMilliseconds(0.0001) == "<0.001")
        #expect(BenchText.reportedMilliseconds(0.002) == "0.002")
        #expect(BenchText.reportedMilliseconds(8) == "8.000")
    }

    @Test func histogramPutsOutliersInTheirOwnRow() {
        let samples: [Double] = [1, 1, 1, 2, 2, 3, 100]
        let rows = BenchReport.histogram(samples)
        // Ten bins from the minimum to p99 (rank 5.94: 3 + 0.94 x 97 = 94.18), then the slower one.
        #expect(rows.count == 11)
        #expect(rows.last?.hasPrefix("  > 94.180 (p99)") == true)
        #expect(rows.last?.hasSuffix(" 1") == true)
        let counts = rows.compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
        #expect(counts.reduce(0, +) == samples.count)
        #expect(counts.first == 6)  // 1, 1, 1, 2, 2 and 3 all fall in the first 9.3 ms
    }

    @Test func histogramOfIdenticalSamplesIsOneRow() {
        let rows = BenchReport.histogram([2.5, 2.5, 2.5])
        #expect(rows.count == 1)
        #expect(rows[0].contains("2.500"))
        #expect(rows[0].hasSuffix("|" + String(repeating: "#", count: BenchReport.histogramWidth) + "  3"))
    }
}
