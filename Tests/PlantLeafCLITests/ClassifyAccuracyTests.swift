import Foundation
import PlantLeafTestSupport
import Testing

/// The built binary on the shared PlantVillage samples, against their folder names and against
/// what the reference pipeline (PIL + ai_edge_litert) printed for them.
@Suite struct ClassifyAccuracyTests {
    /// plantleaf's JSON lines for every sample, keyed by the path relative to samples/plantvillage.
    static func classifySamples(model: String, topK: Int = 1) throws -> [String: [String: Any]] {
        let result = try runPlantLeaf(["classify", "--format", "json", "--top-k", String(topK), "--model", model,
                                       "--labels", TestPaths.labels, TestPaths.plantVillage], timeLimit: sampleSetTimeLimit)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        var byPath: [String: [String: Any]] = [:]
        for line in result.stdoutLines {
            let object = try #require(jsonObject(line))
            let path = try #require(object["path"] as? String)
            byPath[String(path.dropFirst(TestPaths.plantVillage.count + 1))] = object
        }
        return byPath
    }

    static func topLabel(_ object: [String: Any]) -> String? {
        ((object["top"] as? [[String: Any]])?.first?["label"]) as? String
    }

    /// The top classes as (index, raw int8 output): the model's output is int8 with scale 1/256
    /// and zero point -128, so a printed score s came from the integer 256 s - 128.
    static func rawTop(_ object: [String: Any]) -> [[Int]] {
        ((object["top"] as? [[String: Any]]) ?? []).compactMap { entry in
            guard let index = entry["index"] as? Int, let score = entry["score"] as? Double else { return nil }
            return [index, Int((score * 256).rounded()) - 128]
        }
    }

    /// JPEGs are decoded at full size and resized with Pillow's bilinear filter and rounding, so
    /// the model sees the reference pipeline's pixels and gives the same int8 outputs.
    @Test func int8ModelGetsTheSamplesRightAndMatchesTheReferenceOutputs() throws {
        let results = try Self.classifySamples(model: TestPaths.defaultModel, topK: 3)
        #expect(results.count == 76)
        let correct = results.filter { path, object in Self.topLabel(object) == path.split(separator: "/").first.map(String.init) }
        #expect(correct.count >= 75, "top-1 correct on \(correct.count)/76")

        let reference = try String(contentsOfFile: TestPaths.plantVillage + "/reference-bilinear.jsonl", encoding: .utf8)
        var identical = 0, compared = 0
        var differing: [String] = []
        for line in reference.split(separator: "\n") {
            let expected = try #require(jsonObject(String(line)))
            let path = try #require(expected["path"] as? String)
            let top3 = try #require(expected["top3"] as? [[Any]])
            let raw = try #require(expected["raw"] as? [Int])
            let expectedTop = zip(top3, raw).compactMap { entry, value in (entry.first as? Int).map { [$0, value] } }
            let ours = try #require(results[path], "no result for \(path)")
            compared += 1
            if Self.rawTop(ours) == expectedTop { identical += 1 } else { differing.append("\(path): \(Self.rawTop(ours)) vs \(expectedTop)") }
        }
        #expect(compared == 76)
        #expect(identical >= 74, "int8 top-3 outputs equal the reference's on \(identical)/76; differing: \(differing)")
    }

    @Test func floatModelAgreesWithInt8Model() throws {
        let int8 = try Self.classifySamples(model: TestPaths.defaultModel)
        let float = try Self.classifySamples(model: TestPaths.floatModel)
        let agreeing = int8.filter { path, object in Self.topLabel(object) == float[path].flatMap(Self.topLabel) }
        #expect(agreeing.count >= 74, "float and int8 agree on \(agreeing.count)/76")
    }

    @Test func uint8ImageNetModelSeesTheCat() throws {
        let result = try runPlantLeaf(["classify", "--format", "json", "--model", TestPaths.imagenetModel,
                                       "--labels", TestPaths.samples + "/imagenet/imagenet_labels.txt",
                                       TestPaths.samples + "/imagenet/cat_720p.jpg"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let object = try #require(jsonObject(result.stdout))
        #expect(Self.topLabel(object) == "Egyptian cat")
    }
}
