import PlantLeafSupport
import Testing

/// Statistics against values worked out by hand (type-7 percentiles: rank p/100 x (n - 1)).
@Suite struct LatencyStatisticsTests {
    @Test func oddCount() throws {
        let statistics = try #require(LatencyStatistics([5, 1, 4, 2, 3]))
        #expect(statistics.count == 5)
        #expect(statistics.min == 1)
        #expect(statistics.max == 5)
        #expect(statistics.median == 3)
        #expect(statistics.mean == 3)
        // Squared deviations 4 + 1 + 0 + 1 + 4 = 10, over n - 1 = 4.
        #expect(abs(statistics.standardDeviation - 2.5.squareRoot()) < 1e-12)
        // p90: rank 3.6, between 4 and 5. p99: rank 3.96.
        #expect(abs(statistics.p90 - 4.6) < 1e-12)
        #expect(abs(statistics.p99 - 4.96) < 1e-12)
    }

    @Test func evenCountMedianIsMeanOfMiddleTwo() throws {
        let statistics = try #require(LatencyStatistics([4, 1, 3, 2]))
        #expect(statistics.median == 2.5)
        #expect(statistics.mean == 2.5)
        // Squared deviations 2.25 + 0.25 + 0.25 + 2.25 = 5, over 3.
        #expect(abs(statistics.standardDeviation - (5.0 / 3).squareRoot()) < 1e-12)
        // p90: rank 2.7, between 3 and 4. p99: rank 2.97.
        #expect(abs(statistics.p90 - 3.7) < 1e-12)
        #expect(abs(statistics.p99 - 3.97) < 1e-12)
    }

    @Test func oneSample() throws {
        let statistics = try #require(LatencyStatistics([7.25]))
        #expect(statistics == LatencyStatistics(count: 1, min: 7.25, median: 7.25, mean: 7.25, standardDeviation: 0,
                                                p90: 7.25, p99: 7.25, max: 7.25))
    }

    @Test func identicalSamplesHaveNoSpread() throws {
        // 0.1 is inexact in binary: summing then dividing would leave a residue.
        let statistics = try #require(LatencyStatistics([Double](repeating: 0.1, count: 7)))
        #expect(statistics.standardDeviation == 0)
        #expect(statistics.mean == 0.1)
        #expect([statistics.min, statistics.median, statistics.p90, statistics.p99, statistics.max] == [0.1, 0.1, 0.1, 0.1, 0.1])
    }

    @Test func noSamplesGiveNoStatistics() {
        #expect(LatencyStatistics([]) == nil)
    }

    @Test func percentileEnds() {
        #expect(LatencyStatistics.percentile(0, ofSorted: [2, 4, 8]) == 2)
        #expect(LatencyStatistics.percentile(100, ofSorted: [2, 4, 8]) == 8)
        #expect(LatencyStatistics.percentile(25, ofSorted: [2, 4, 8]) == 3)
    }
}
