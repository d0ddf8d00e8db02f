@testable import PlantLeafKit
import PlantLeafTestSupport
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

@Suite struct BenchTextTests {
    @Test func fixedDecimals() {
        #expect(BenchText.fixed(3.91, decimals: 3) == "3.910")
        #expect(BenchText.fixed(2, decimals: 3) == "2.000")
        #expect(BenchText.fixed(0.0004, decimals: 3) == "0.000")
        #expect(BenchText.fixed(12.3456, decimals: 1) == "12.3")
        #expect(BenchText.fixed(.nan, decimals: 3) == "-")
        #expect(BenchText.ratio(1.0 / 3) == "0.33x")
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

/// FIPS 180-4 example digests, and a file checked against coreutils' sha256sum.
@Suite struct SHA256Tests {
    @Test func knownDigests() {
        #expect(SHA256.hex(of: []) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // 56 bytes: the length no longer fits in the first block's padding.
        #expect(SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(of: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func fileDigestMatchesSha256sum() throws {
        let checked = try runCommand("/usr/bin/sha256sum", [TestPaths.defaultModel])
        #expect(checked.status == 0)
        let expected = String(checked.stdout.prefix(64))
        #expect(SHA256.hex(ofFile: TestPaths.defaultModel) == expected)
        #expect(SHA256.hex(ofFile: TestPaths.root + "/no-such-file") == nil)
    }
}
