import Foundation
import PlantLeafCore
import PlantLeafSupport
import PlantLeafTestSupport
import Testing

/// The generalist check end to end: `plantleaf calibrate` on folders the tests make, the leaf
/// reference it writes picked up by classify, and a missing or damaged reference or model
/// reported once and carried as skipped in every result, never passed in silence.
@Suite struct SecondOpinionCLITests {
    /// A folder of `count` sample leaves (links), one a class first.
    static func leafFolder(_ folder: String, count: Int) throws -> String {
        let leaves = folder + "/leaves"
        try FileManager.default.createDirectory(atPath: leaves, withIntermediateDirectories: true)
        let images = TestPaths.plantVillageImages()
        for (index, image) in images.prefix(count).enumerated() {
            try FileManager.default.createSymbolicLink(atPath: leaves + "/leaf-\(index).jpg", withDestinationPath: image)
        }
        return leaves
    }

    static func records(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test func calibrateWritesTheUsersReferenceWhichClassifyUses() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let leaves = try Self.leafFolder(folder, count: 24)
        let environment = ["XDG_DATA_HOME": folder + "/data"]
        let made = try runPlantLeaf(["calibrate", leaves], environment: environment)
        #expect(made.status == 0, "\(made.stderr)")
        let written = folder + "/data/plantleaf/leaf-reference.txt"
        #expect(made.stdout.hasPrefix("clearly leaf-like (leaf-likeness 0.24 and up)"), "\(made.stdout)")
        #expect(made.stdout.contains("\nyour photos ") && made.stdout.contains("/24\n"), "\(made.stdout)")
        #expect(made.stdout.hasSuffix("wrote \(written) (24 photos); delete it to go back to the default reference\n"))
        let text = try String(contentsOfFile: written, encoding: .utf8)
        let generalist = "mobilenet_v1_0.25_128_quant.tflite 525598"
        #expect(text.hasPrefix("plantleaf-leaf-reference 3\nphotos 24\nclasses 1001\ninput 128\ngeneralist \(generalist)\n"))
        // classify reads it: a damaged copy there is what classify then reports, naming it.
        let good = try runPlantLeaf(["classify", "--format", "json", TestPaths.appleScabLeaf], environment: environment)
        #expect(good.status == 0 && good.stderr.isEmpty, "\(good.stderr)")
        let likeness = try #require(try Self.records(good.stdout).first?["leaf_likeness"] as? Double)
        #expect(likeness > 0.24)
        // The generalist run at another side than the reference was made at: refused in one line
        // that names the file and the remedy.
        let otherSide = try runPlantLeaf(["classify", "--format", "json", TestPaths.appleScabLeaf],
                                         environment: environment.merging(["PLANTLEAF_GENERALIST_SIDE": "160"]) { $1 })
        #expect(otherSide.status == 0)
        #expect(otherSide.stderrLines == ["plantleaf classify: warning: generalist check skipped in every result: the leaf reference \(written) "
                                          + "was made at 128×128 pixels, the generalist model runs at 160×160: make it again with "
                                          + "`plantleaf calibrate DIR`, or delete it to use the default one"], "\(otherSide.stderr)")
        // A reference made with another generalist model (the uint8 MobileNetV2 the check ran
        // before): its outputs are not comparable, so it is refused in one line naming the remedy.
        let otherModel = "mobilenet_v2_1.0_224_quant.tflite 3577760"
        let foreign = try LeafReference(meanOf: Array(repeating: [Double](repeating: 1.0 / 1001, count: 1001), count: 20), inputSide: 128,
                                        generalist: otherModel)
        try Data(foreign.text.utf8).write(to: URL(fileURLWithPath: written))
        let refused = try runPlantLeaf(["classify", "--format", "json", TestPaths.appleScabLeaf], environment: environment)
        #expect(refused.status == 0)
        #expect(refused.stderrLines == ["plantleaf classify: warning: generalist check skipped in every result: the leaf reference \(written) "
                                        + "was made with the generalist model \(otherModel), the check runs \(generalist): make it again: "
                                        + "`make build` (or `scripts/setup.sh leaf-reference BINARY`) for the default one, "
                                        + "`plantleaf calibrate DIR` for your own"], "\(refused.stderr)")
        #expect(try Self.records(refused.stdout).first?["leaf_likeness"] is NSNull)
        try Data("plantleaf-leaf-reference 1\nphotos 24\n".utf8).write(to: URL(fileURLWithPath: written))
        let damaged = try runPlantLeaf(["classify", "--format", "json", TestPaths.appleScabLeaf], environment: environment)
        #expect(damaged.status == 0)
        #expect(damaged.stderrLines.count == 1 && damaged.stderr.contains(written) && damaged.stderr.contains("plantleaf calibrate DIR"),
                "\(damaged.stderr)")
    }

    /// A reference with a right header and checksum whose values are no distribution (1001 ones)
    /// would find every picture leaf-like and so let a hot dog through as a diagnosis: refused in
    /// one line that names the remedy, and the check carried as skipped.
    @Test func aReferenceThatIsNoDistributionIsRefused() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        // The default reference's own head (format, input side, generalist), so that only its values are wrong.
        let head = try String(contentsOfFile: TestPaths.root + "/Models/leaf-reference.txt", encoding: .utf8)
            .split(separator: "\n").prefix(5).map(String.init)
        let body = (head + Array(repeating: "1", count: 1001)).joined(separator: "\n") + "\n"
        let ones = folder + "/ones.txt"
        try (body + "sha256 " + SHA256.hex(of: Array(body.utf8)) + "\n").write(toFile: ones, atomically: true, encoding: .utf8)
        let result = try runPlantLeaf(["classify", "--format", "json", "--reference", ones, TestPaths.samples + "/imagenet/hot_dog.jpg"])
        #expect(result.status == 0)
        #expect(result.stderrLines == ["plantleaf classify: warning: generalist check skipped in every result: the leaf reference \(ones) is "
                                       + "damaged: its values sum to 1001 where a distribution's sum to 1: make it again with "
                                       + "`plantleaf calibrate DIR`, or delete it to use the default one"], "\(result.stderr)")
        let record = try #require(try Self.records(result.stdout).first)
        #expect(record["leaf_likeness_skipped"] != nil && record["leaf_likeness"] is NSNull, "\(record)")
    }

    @Test func calibrateRefusesTooFewPhotosNonLeavesAndAnUnwritableFolderLeavingTheOldOne() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let output = folder + "/reference.txt"
        let before = Data("the previous reference\n".utf8)
        try before.write(to: URL(fileURLWithPath: output))
        let few = try runPlantLeaf(["calibrate", "--output", output, try Self.leafFolder(folder + "/few", count: 5)])
        #expect(few.status == 2)
        #expect(few.stderrLines.last?.contains("a leaf reference needs at least 20 leaf photos, got 5") == true, "\(few.stderr)")
        let mixed = try Self.leafFolder(folder + "/mixed", count: 22)
        TestImages.write(TestImages.jpeg([UInt8](repeating: 128, count: 64 * 64 * 3), width: 64, height: 64), to: mixed + "/grey-card.jpg")
        let refused = try runPlantLeaf(["calibrate", "--output", output, mixed])
        #expect(refused.status == 2)
        #expect(refused.stderrLines == ["plantleaf calibrate: \(mixed)/grey-card.jpg: no green leaf in it",
                                        "plantleaf calibrate: 1 of 23 photos are not leaf photos: take them out and run it again (nothing written)"],
                "\(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == before)
        // A data folder that cannot be made: a file stands where it would go.
        TestImages.write(Array("a file".utf8), to: folder + "/not-a-folder")
        let unwritable = try runPlantLeaf(["calibrate", try Self.leafFolder(folder + "/enough", count: 20)],
                                          environment: ["XDG_DATA_HOME": folder + "/not-a-folder"])
        #expect(unwritable.status == 2)
        #expect(unwritable.stderrLines.count == 1 && unwritable.stderr.contains("cannot write the reference \(folder)/not-a-folder/plantleaf/leaf-reference.txt"),
                "\(unwritable.stderr)")
        let empty = try runPlantLeaf(["calibrate", "--output", output, folder + "/few/leaves/none"])
        let after = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(empty.status == 2 && after == before)
    }

    /// No reference: one line on stderr, and every JSON and CSV result says the check was skipped.
    @Test func missingReferenceIsSkippedInEveryResultNeverPassed() throws {
        let missing = "/nonexistent/leaf-reference.txt"
        let json = try runPlantLeaf(["classify", "--format", "json", "--reference", missing, TestPaths.appleScabLeaf, TestPaths.healthyTomatoLeaf])
        #expect(json.status == 0)
        #expect(json.stderrLines == ["plantleaf classify: warning: generalist check skipped in every result: cannot read the leaf reference "
            + "\(missing): no such file or directory: run `make setup` (it makes the default one from the sample leaves), or `plantleaf calibrate DIR`"])
        let records = try Self.records(json.stdout)
        #expect(records.count == 2)
        for record in records {
            #expect(record["leaf_likeness"] is NSNull)
            #expect((record["leaf_likeness_skipped"] as? String)?.contains(missing) == true)
        }
        let csv = try runPlantLeaf(["classify", "--format", "csv", "--top-k", "1", "--reference", missing, TestPaths.appleScabLeaf])
        // Reason, likeness and the generalist's time empty; the class's name, then the model answered.
        #expect(csv.stdout.split(separator: "\n").last?.hasSuffix(",,,,Apple — Apple scab,model,") == true, "\(csv.stdout)")
        let text = try runPlantLeaf(["classify", "--reference", missing, TestPaths.appleScabLeaf])
        #expect(text.stderrLines.count == 1 && text.stderr.contains("generalist check skipped in every result"))
        // Without the check nothing is said and nothing is written about it.
        let off = try runPlantLeaf(["classify", "--format", "json", "--checks", "picture,vegetation,score", "--reference", missing, TestPaths.appleScabLeaf])
        #expect(off.stderr.isEmpty && !off.stdout.contains("leaf_likeness"))
    }

    /// An install without the generalist model (a copied binary beside the leaf model only).
    @Test func missingGeneralistModelNamesItsFile() throws {
        let prefix = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(prefix) }
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: prefix + "/share/plantleaf", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestPaths.binary, toPath: prefix + "/bin/plantleaf")
        try FileManager.default.createSymbolicLink(atPath: prefix + "/share/plantleaf/plantvillage_int8.tflite", withDestinationPath: TestPaths.defaultModel)
        try FileManager.default.createSymbolicLink(atPath: prefix + "/share/plantleaf/labels.txt", withDestinationPath: TestPaths.labels)
        let result = try runCommand(prefix + "/bin/plantleaf", ["classify", "--format", "json", TestPaths.appleScabLeaf],
                                    environment: ["PLANTLEAF_LITERT_LIB": TestPaths.runtimeLibrary, "XDG_DATA_HOME": prefix + "/data"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderrLines.count == 1 && result.stderr.contains("generalist check skipped in every result")
                && result.stderr.contains(prefix + "/share/plantleaf/mobilenet_v1_0.25_128_quant.tflite") && result.stderr.contains("make setup"),
                "\(result.stderr)")
        #expect(try Self.records(result.stdout).first?["leaf_likeness"] is NSNull)
    }

    /// The reason given is the true one: a long panorama with its leaf at one end was read only in
    /// its empty middle, an 8 × 8 picture is too small, random noise is noise (not "uncertain",
    /// which says there may be a leaf).
    @Test func reasonsAreTheTrueOnes() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let leaf = try ImageDecoder().decode(try FileReader.readAll(path: TestPaths.appleScabLeaf))
        let (width, height) = (4000, leaf.height)
        var panorama = [UInt8](repeating: 250, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<leaf.width {
                for channel in 0..<3 { panorama[(y * width + x) * 3 + channel] = leaf.pixels[(y * leaf.width + x) * 3 + channel] }
            }
        }
        TestImages.write(TestImages.png(panorama, width: width, height: height, colorType: 2, bitDepth: 8), to: folder + "/panorama.png")
        let small = Array(leaf.pixels.prefix(8 * 3)) + [UInt8](repeating: 90, count: 8 * 7 * 3)
        TestImages.write(TestImages.png(small, width: 8, height: 8, colorType: 2, bitDepth: 8), to: folder + "/small.png")
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<(320 * 240 * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        TestImages.write(TestImages.png(noise, width: 320, height: 240, colorType: 2, bitDepth: 8), to: folder + "/noise.png")
        let result = try runPlantLeaf(["classify", "--format", "json", folder + "/panorama.png", folder + "/small.png", folder + "/noise.png"])
        let records = try Self.records(result.stdout)
        #expect(records.map { "\($0["verdict"] ?? "")/\($0["reason"] ?? "")" }
                == ["uncertain/off-centre", "uncertain/too-small", "no-picture/noise"], "\(result.stdout)")
    }

    /// The verdicts' reasons reach every output: a hot dog is not clearly a leaf, with advice.
    @Test func reasonAndLikenessAreInTheRecord() throws {
        let result = try runPlantLeaf(["classify", "--format", "json", TestPaths.samples + "/imagenet/hot_dog.jpg", TestPaths.appleScabLeaf])
        let records = try Self.records(result.stdout)
        let policy = VerdictPolicy(checks: .classifyDefault)
        #expect(records[0]["verdict"] as? String == "uncertain" && records[0]["reason"] as? String == "not-clearly-leaf")
        #expect((records[0]["advice"] as? String)?.hasPrefix("PlantLeaf cannot tell for sure what this picture shows.") == true)
        let likeness = records[0]["leaf_likeness"] as? Double ?? 1
        #expect(likeness >= policy.unlikeLeavesBelow && likeness < policy.clearlyLeafFrom, "\(likeness)")
        #expect(records[1]["verdict"] as? String == "diagnosis" && records[1]["reason"] == nil)
        #expect(((records[1]["timing_ms"] as? [String: Any])?["generalist"] as? Double ?? 0) > 0)
    }
}
