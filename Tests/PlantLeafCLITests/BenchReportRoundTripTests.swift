import Foundation
import PlantLeafKit
import PlantLeafTestSupport
import Testing

/// The bench JSON's writer (`BenchReport.json`) and its reader (`StoredBenchReport`, what
/// `bench compare` reads) are two copies of one schema: a report the real `plantleaf bench`
/// wrote must read back with every stage, and compare must line it up.
@Suite struct BenchReportRoundTripTests {
    @Test func aRealReportReadsBackAndCompares() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let report = folder + "/report.json"
        let bench = try runPlantLeaf(["bench", "--synthetic", "--runs", "3", "--warmup", "0", "--json", report])
        #expect(bench.status == 0, "stderr: \(bench.stderr)")

        let stored = try StoredBenchReport.load(path: report)
        #expect(stored.schemaVersion == BenchReport.schemaVersion)
        let result = try #require(stored.results.first)
        #expect(result.threads == 1)
        #expect(Set(result.stages.keys) == Set(BenchStage.allCases.map(\.rawValue)))
        for (name, stage) in result.stages {
            let times = try #require(stage, "stage \(name) is null")
            #expect((times.medianMs ?? 0) > 0 && (times.p99Ms ?? 0) >= (times.medianMs ?? 0), "stage \(name)")
        }

        let compare = try runPlantLeaf(["bench", "compare", report, report])
        #expect(compare.status == 0, "stderr: \(compare.stderr)")
        let rows = compare.stdoutLines.filter { $0.hasPrefix("  ") }
        for stage in BenchStage.allCases {
            let row = try #require(rows.first { $0.hasPrefix("  \(stage.title) ") }, "no row for \(stage.title)")
            #expect(row.split(separator: " ").last == "1.00x", "\(row)")
        }
    }
}
