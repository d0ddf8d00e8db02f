import Foundation
import PlantLeafKit
import PlantLeafTestSupport
import Testing

/// Damaged inputs end in one line each and the right exit code. Under `make test-sanitize` the
/// binary these run is the AddressSanitizer build, so a memory error or a leak in it also fails them.
@Suite struct DamagedInputTests {
    @Test func truncatedModelIsRefusedWithOneLine() throws {
        let bytes = try FileReader.readAll(path: TestPaths.defaultModel)
        let model = TestPaths.temporaryDirectory() + "/plantvillage_int8.tflite"
        TestImages.write(Array(bytes.prefix(bytes.count / 2)), to: model)
        let result = try runPlantLeaf(["classify", "--model", model, TestPaths.plantVillageImages()[0]])
        #expect(result.status == 2)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.hasPrefix("plantleaf classify: model \(model) is damaged: "))
    }

    @Test func damagedImagesFailAloneAmongGoodOnes() throws {
        let folder = TestPaths.temporaryDirectory()
        let leaves = Array(TestPaths.plantVillageImages().prefix(3))
        let photo = try FileReader.readAll(path: leaves[0])
        let damaged = [("empty.jpg", [UInt8](), "empty file (0 bytes)"),
                       ("truncated.jpg", Array(photo.prefix(photo.count / 2)), "truncated JPEG: Premature end of JPEG file"),
                       ("notes.jpg", Array("not a photo".utf8), "not a PNG or JPEG image (starts with 6e 6f 74 20 61 20 70 68)")]
        for (name, bytes, _) in damaged { TestImages.write(bytes, to: folder + "/" + name) }
        let paths = [leaves[0], folder + "/empty.jpg", leaves[1], folder + "/truncated.jpg", folder + "/notes.jpg", leaves[2]]
        let result = try runPlantLeaf(["classify", "--format", "json"] + paths)
        #expect(result.status == 1)
        let lines = result.stdoutLines.compactMap(jsonObject)
        #expect(lines.map { $0["path"] as? String } == paths)
        #expect(lines.filter { $0["top"] != nil }.count == 3)
        for (name, _, reason) in damaged {
            #expect(lines.contains { $0["path"] as? String == folder + "/" + name && $0["error"] as? String == reason })
        }
    }
}
