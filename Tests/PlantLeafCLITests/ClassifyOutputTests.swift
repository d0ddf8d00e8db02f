import Foundation
import PlantLeafTestSupport
import Testing

/// The shapes of classify's output: text for people, JSON lines and CSV for programs.
@Suite struct ClassifyOutputTests {
    static let leaf = TestPaths.plantVillage + "/Tomato___Early_blight/0034a551-9512-44e5-ba6c-827f85ecc688___RS_Erly.B 9432.JPG"

    @Test func textLeadsWithTheVerdictThenShowsReadableNamesAndPercentages() throws {
        let result = try runPlantLeaf(["classify", Self.leaf])
        #expect(result.status == 0)
        let lines = result.stdoutLines
        #expect(lines.count == 5 && lines[0] == Self.leaf)
        #expect(lines[1] == "  Diagnosis: the top class is the answer")
        #expect(lines[2].hasSuffix("%  Tomato — Early blight"), "\(lines)")
        #expect(lines[2].trimmingCharacters(in: .whitespaces).first?.isNumber == true)
    }

    @Test func jsonHasTheDocumentedFields() throws {
        let result = try runPlantLeaf(["classify", "--format", "json", "--top-k", "5", Self.leaf])
        #expect(result.status == 0)
        let object = try #require(jsonObject(result.stdout))
        #expect(object["schema"] as? Int == 2)
        #expect(object["path"] as? String == Self.leaf)
        #expect(object["verdict"] as? String == "diagnosis")
        #expect(result.stdout.range(of: #""verdict""#)!.lowerBound < result.stdout.range(of: #""top""#)!.lowerBound)
        let top = try #require(object["top"] as? [[String: Any]])
        #expect(top.count == 5)
        #expect(top[0]["label"] as? String == "Tomato___Early_blight" && top[0]["index"] as? Int == 29)
        let scores = top.compactMap { $0["score"] as? Double }
        #expect(scores.count == 5 && scores == scores.sorted(by: >) && scores.allSatisfy { $0 >= 0 && $0 <= 1 })
        let timing = try #require(object["timing_ms"] as? [String: Double])
        #expect(Set(timing.keys) == ["read", "prepare", "invoke", "postprocess", "generalist"])
        let likeness = try #require(object["leaf_likeness"] as? Double)
        #expect(likeness > 0.3 && likeness <= 1 && object["reason"] == nil)
        #expect(timing.values.allSatisfy { $0 >= 0 } && timing["invoke"]! > 0)
    }

    @Test func csvHasOneRowPerRankWithAHeader() throws {
        let result = try runPlantLeaf(["classify", "--format", "csv", "--top-k", "2", Self.leaf])
        #expect(result.status == 0)
        let rows = result.stdoutLines
        #expect(rows.count == 3)
        #expect(rows[0] == "path,verdict,rank,index,label,score,read_ms,prepare_ms,invoke_ms,postprocess_ms,reason,leaf_likeness,generalist_ms,display,answer_from,taught")
        // The path holds spaces but no comma, so it stays unquoted.
        #expect(rows[1].hasPrefix(Self.leaf + ",diagnosis,1,29,Tomato___Early_blight,"))
        #expect(rows[2].hasPrefix(Self.leaf + ",diagnosis,2,"))
        // A diagnosis has no reason: that column is empty, the likeness and its time are not.
        #expect(rows[1].split(separator: ",", omittingEmptySubsequences: false).count == 16)
        // Without lessons the model answered, and nothing was taught.
        #expect(rows[1].hasSuffix(",Tomato — Early blight,model,"))
        #expect(rows[1].split(separator: ",", omittingEmptySubsequences: false)[10] == "")
    }

    @Test func parallelJobsGiveTheSameResultsInInputOrder() throws {
        func topLists(jobs: Int) throws -> [String] {
            let result = try runPlantLeaf(["classify", "--format", "json", "--jobs", String(jobs), TestPaths.plantVillage],
                                          timeLimit: sampleSetTimeLimit)
            #expect(result.status == 0)
            return result.stdoutLines.map { line in
                let object = jsonObject(line) ?? [:]
                let top = (object["top"] as? [[String: Any]] ?? []).map { "\($0["index"] ?? "")=\($0["score"] ?? "")" }
                return "\(object["path"] ?? "") \(top)"
            }
        }
        let serial = try topLists(jobs: 1)
        #expect(serial.count == 76)
        #expect(try topLists(jobs: 3) == serial)
        #expect(serial.map { $0.split(separator: " ")[0] } == serial.map { $0.split(separator: " ")[0] }.sorted())
    }

    @Test func progressLineOnlyWhenStderrIsATerminal() throws {
        let quiet = try runPlantLeaf(["classify", TestPaths.plantVillage], timeLimit: sampleSetTimeLimit)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty)
        // script(1) gives the command a pseudo-terminal and records what it drew there.
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let typescript = folder + "/typescript"
        let command = "'\(TestPaths.binary)' classify '\(TestPaths.plantVillage)' > /dev/null"
        let recorded = try runCommand("/usr/bin/script", ["-qec", command, typescript], timeLimit: sampleSetTimeLimit)
        #expect(recorded.status == 0)
        let screen = try String(contentsOfFile: typescript, encoding: .utf8)
        #expect(screen.contains("[38/76] "), "\(screen.prefix(300))")
    }

    @Test func helpAndVersion() throws {
        let help = try runPlantLeaf(["classify", "--help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE: plantleaf classify") && help.stdout.contains("--jobs"))
        let version = try runPlantLeaf(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("plantleaf "))
    }
}
