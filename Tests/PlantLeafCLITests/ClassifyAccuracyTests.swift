import Foundation
import PlantLeafTestSupport
import Testing

/// The built binary on the shared PlantVillage samples, against their folder names and against
/// what the reference pipeline (PIL + ai_edge_litert) printed for them.
@Suite struct ClassifyAccuracyTests {
    /// plantleaf's JSON lines for every sample, keyed by the path relative to samples/plantvillage.
    static func classifySamples(model: String) throws -> [String: [String: Any]] {
        let result = try runPlantLeaf(["classify", "--format", "json", "--model", model, "--labels", TestPaths.labels,
                                       TestPaths.plantVillage])
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

    @Test func int8ModelGetsTheSamplesRightAndAgreesWithTheReference() throws {
        let results = try Self.classifySamples(model: TestPaths.defaultModel)
        #expect(results.count == 76)
        let correct = results.filter { path, object in Self.topLabel(object) == path.split(separator: "/").first.map(String.init) }
        #expect(correct.count >= 75, "top-1 correct on \(correct.count)/76")

        let reference = try String(contentsOfFile: TestPaths.plantVillage + "/reference-bilinear.jsonl", encoding: .utf8)
        var sameTop1 = 0, compared = 0
        var scoreDifferences: [Double] = []
        for line in reference.split(separator: "\n") {
            let expected = try #require(jsonObject(String(line)))
            let path = try #require(expected["path"] as? String)
            let top3 = try #require(expected["top3"] as? [[Any]])
            let ours = try #require(results[path], "no result for \(path)")
            let ourTop = try #require(ours["top"] as? [[String: Any]])
            compared += 1
            if (ourTop.first?["label"] as? String) == (top3.first?[1] as? String) { sameTop1 += 1 }
            let referenceScore = try #require(top3.first?[2] as? Double)
            let ourScore = try #require(ourTop.first?["score"] as? Double)
            scoreDifferences.append(abs(referenceScore - ourScore))
        }
        #expect(compared == 76)
        #expect(sameTop1 >= 75, "same top-1 as the reference on \(sameTop1)/76")
        // PlantLeaf lets libjpeg-turbo's DCT scaling do the 256 -> 224 step where PIL decodes at
        // full size and resizes bilinearly, so scores differ a little (mean 0.019 on x86_64);
        // a broken pipeline (swapped channels, wrong quantisation) moves them far more.
        let meanDifference = scoreDifferences.reduce(0, +) / Double(scoreDifferences.count)
        #expect(meanDifference < 0.04, "mean top-1 score difference from the reference: \(meanDifference)")
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
