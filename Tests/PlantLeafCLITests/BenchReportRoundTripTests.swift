import Foundation
import PlantLeafCore
import PlantLeafCamera
import PlantLeafBench
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
        let bench = try runPlantLeaf(["bench", "--synthetic", "--runs", "3", "--warmup", "0", "--profile", "--json", report])
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

        try Self.expectDocumented(jsonAt: report)

        let compare = try runPlantLeaf(["bench", "compare", report, report])
        #expect(compare.status == 0, "stderr: \(compare.stderr)")
        let rows = compare.stdoutLines.filter { $0.hasPrefix("  ") }
        for stage in BenchStage.allCases {
            let row = try #require(rows.first { $0.hasPrefix("  \(stage.title) ") }, "no row for \(stage.title)")
            #expect(row.split(separator: " ").last == "1.00x~", "a report against itself is within its own noise: \(row)")
        }
    }

    /// The third copy of the schema is docs/bench.md's field table: every field a real report has
    /// is in it (directly, or inside a field documented as a whole), and every field it lists is
    /// in the report; the stage keys it names are `BenchStage`'s.
    static func expectDocumented(jsonAt path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let written = Self.fieldPaths(try JSONSerialization.jsonObject(with: data))
        let document = try String(contentsOfFile: TestPaths.root + "/docs/bench.md", encoding: .utf8)
        let schema = try #require(document.range(of: "\n## JSON schema"), "docs/bench.md has no JSON schema section")
        let section = document[schema.upperBound...].prefix { _ in true }
        let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
        let table = section[..<end].split(separator: "\n").filter { $0.hasPrefix("| `") }
        var documented: Set<String> = []
        var stageKeys: [String] = []
        for row in table {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            // "`settings.model`, `.labels`": a leading dot replaces the first name's last part.
            var first = ""
            for name in cells[0].split(separator: ",").map({ $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }) {
                if name.hasPrefix("."), let cut = first.lastIndex(of: ".") {
                    documented.insert(String(first[..<cut]) + name)
                } else {
                    first = name
                    documented.insert(name)
                }
            }
            if first == "results[].stages" {
                let meaning = cells[2]
                let keys = meaning[meaning.range(of: "keys ")!.upperBound..<meaning.firstIndex(of: ";")!]
                stageKeys = keys.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
            }
        }
        #expect(stageKeys == BenchStage.allCases.map(\.rawValue), "docs/bench.md's stage keys")
        let undocumentedInReport = documented.filter { !written.contains($0) }.sorted()
        #expect(undocumentedInReport == [], "docs/bench.md lists fields the report does not have")
        func isInside(_ field: String, _ container: String) -> Bool {
            field.hasPrefix(container + ".") || field.hasPrefix(container + "[]")
        }
        let missingFromDocs = written.filter { field in
            // Documented itself, or an object whose fields have rows of their own.
            guard !documented.contains(field), !documented.contains(where: { isInside($0, field) }) else { return false }
            // Or inside a field the table documents as a whole (no row below it).
            let ancestors = documented.filter { isInside(field, $0) }
            return !ancestors.contains { ancestor in !documented.contains { isInside($0, ancestor) } }
        }.sorted()
        #expect(missingFromDocs == [], "the report has fields docs/bench.md does not document")
    }

    /// Every key path in a JSON value: objects' keys joined with ".", array elements as "[]".
    static func fieldPaths(_ value: Any, prefix: String = "") -> Set<String> {
        var paths: Set<String> = []
        if let object = value as? [String: Any] {
            for (key, child) in object {
                let path = prefix.isEmpty ? key : prefix + "." + key
                paths.insert(path)
                paths.formUnion(fieldPaths(child, prefix: path))
            }
        } else if let array = value as? [Any] {
            for element in array { paths.formUnion(fieldPaths(element, prefix: prefix + "[]")) }
        }
        return paths
    }
}
