import Foundation
import PlantLeafCore
import PlantLeafTestSupport
import Testing

/// Where the reference pipeline runs from, and whether it can here.
enum ReferencePipeline {
    static let python = TestPaths.root + "/.venv/bin/python"
    static let script = TestPaths.root + "/../shared/tools/reference_classify.py"

    static let available: Bool = {
        guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: script) else { return false }
        return (try? runCommand(python, ["-c", "import PIL, numpy, ai_edge_litert"]))?.status == 0
    }()
}

/// The reference pipeline (Pillow 13 + ai_edge_litert, the shared tools' script) run beside the
/// built binary: the int8 outputs must be the same integers, not merely the same classes. The
/// reference crops nothing, so plantleaf runs with `--crop none`.
@Suite(.enabled(if: ReferencePipeline.available,
                "needs .venv/bin/python with Pillow and ai_edge_litert (scripts/setup.sh reference) and ../shared/tools/reference_classify.py"))
struct ReferenceParityTests {
    /// Top-3 (index, raw int8 output) per path, from the reference script's JSON lines.
    static func reference(_ paths: [String]) throws -> [String: [[Int]]] {
        let result = try runCommand(ReferencePipeline.python, [ReferencePipeline.script, TestPaths.defaultModel, TestPaths.labels] + paths, timeLimit: sampleSetTimeLimit)
        #expect(result.status == 0, "reference stderr: \(result.stderr)")
        var byPath: [String: [[Int]]] = [:]
        for line in result.stdoutLines {
            let object = try #require(jsonObject(line))
            let path = try #require(object["path"] as? String)
            let top3 = try #require(object["top3"] as? [[Any]])
            let raw = try #require(object["raw"] as? [Int])
            byPath[path] = zip(top3, raw).compactMap { entry, value in (entry.first as? Int).map { [$0, value] } }
        }
        return byPath
    }

    /// The same from plantleaf's JSON (its int8 output has scale 1/256 and zero point -128).
    static func plantLeaf(_ paths: [String]) throws -> [String: [[Int]]] {
        let result = try runPlantLeaf(["classify", "--format", "json", "--top-k", "3", "--crop", "none", "--model", TestPaths.defaultModel,
                                       "--labels", TestPaths.labels] + paths, timeLimit: sampleSetTimeLimit)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        var byPath: [String: [[Int]]] = [:]
        for line in result.stdoutLines {
            let object = try #require(jsonObject(line))
            let path = try #require(object["path"] as? String)
            byPath[path] = ((object["top"] as? [[String: Any]]) ?? []).compactMap { entry in
                guard let index = entry["index"] as? Int, let score = entry["score"] as? Double else { return nil }
                return [index, Int((score * 256).rounded()) - 128]
            }
        }
        return byPath
    }

    static func expectIdentical(_ paths: [String]) throws {
        let expected = try reference(paths), ours = try plantLeaf(paths)
        #expect(expected.count == paths.count && ours.count == paths.count)
        let differing = paths.filter { expected[$0] != ours[$0] }.map { "\($0): \(ours[$0] ?? []) vs reference \(expected[$0] ?? [])" }
        #expect(differing.isEmpty, "int8 top-3 outputs differ from the reference on \(differing.count)/\(paths.count): \(differing)")
    }

    @Test func everySampleGivesTheReferenceOutputs() throws {
        try Self.expectIdentical(TestPaths.plantVillageImages())
    }

    /// PNGs (no JPEG DCT scaling involved) of shapes the samples lack, each a sample leaf
    /// stretched to the shape with a little noise so that no two neighbours are alike.
    @Test func otherShapesGiveTheReferenceOutputs() throws {
        let directory = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(directory) }
        let leaf = try ImageDecoder().decode(try FileReader.readAll(path: TestPaths.appleScabLeaf))
        let shapes = [("portrait", 300, 710), ("landscape", 901, 400), ("small", 50, 37), ("tiny-tall", 9, 250),
                      ("large", 2400, 1800), ("wide-strip", 1600, 230)]
        var generator = SystemRandomNumberGenerator()
        var paths: [String] = []
        for (name, width, height) in shapes {
            let picture = Resampler.resize(leaf, width: width, height: height)
            let noisy = picture.pixels.map { UInt8(clamping: Int($0) + Int.random(in: -6...6, using: &generator)) }
            let path = directory + "/\(name)-\(width)x\(height).png"
            TestImages.write(TestImages.png(noisy, width: width, height: height, colorType: 2, bitDepth: 8), to: path)
            paths.append(path)
        }
        try Self.expectIdentical(paths)
    }
}
