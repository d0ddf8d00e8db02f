import Foundation
import PlantLeafTestSupport
import Testing

/// A model, label file or runtime that is missing or wrong stops the run with exit code 2 and
/// one line that says what to do.
@Suite struct ClassifySetupErrorTests {
    func expectSetupError(_ arguments: [String], environment: [String: String]? = nil, mentions text: String) throws {
        let result = try runPlantLeaf(["classify"] + arguments + [TestPaths.appleScabLeaf], environment: environment)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1, "one line: \(result.stderr)")
        #expect(result.stderr.contains(text), "\(result.stderr)")
    }

    @Test func modelThatIsNotATFLiteFile() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        TestImages.write(Array("not a model at all, just some text to fill thirty-two bytes\n".utf8), to: folder + "/text.tflite")
        try expectSetupError(["--model", folder + "/text.tflite"], mentions: "is not a TensorFlow Lite model: no TFL3 identifier")
        TestImages.write([0x1C, 0, 0, 0] + Array("TFL3".utf8), to: folder + "/tiny.tflite")
        try expectSetupError(["--model", folder + "/tiny.tflite"], mentions: "is not a TensorFlow Lite model: only 8 bytes")
        try expectSetupError(["--model", TestPaths.appleScabLeaf], mentions: "is not a TensorFlow Lite model")
    }

    @Test func missingModel() throws {
        try expectSetupError(["--model", "/nonexistent/model.tflite"], mentions: "model not found: /nonexistent/model.tflite")
    }

    @Test func modelWhoseInputIsNotOneRGBImage() throws {
        // The PlantVillage model with its input shape [1, 224, 224, 3] rewritten to [1, 224, 224, 1].
        var model = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestPaths.defaultModel)))
        let shape: [UInt8] = [1, 0, 0, 0, 224, 0, 0, 0, 224, 0, 0, 0, 3, 0, 0, 0]
        let offsets = (0...(model.count - shape.count)).filter { model[$0] == 1 && Array(model[$0..<($0 + 16)]) == shape }
        try #require(offsets.count == 1)
        model[offsets[0] + 12] = 1
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/gray-input.tflite"
        TestImages.write(model, to: path)
        try expectSetupError(["--model", path], mentions: "is [1, 224, 224, 1], expected [1, H, W, 3]")
    }

    @Test func labelCountMismatch() throws {
        try expectSetupError(["--labels", TestPaths.samples + "/imagenet/imagenet_labels.txt"],
                             mentions: "has 1001 names but the model outputs 38 classes")
    }

    @Test func missingLabels() throws {
        try expectSetupError(["--labels", "/nonexistent/labels.txt"], mentions: "cannot read labels /nonexistent/labels.txt")
    }

    @Test func missingRuntimeLibrary() throws {
        try expectSetupError([], environment: ["PLANTLEAF_LITERT_LIB": "/nonexistent/libLiteRt.so"],
                             mentions: "libLiteRt.so not found (looked in /nonexistent/libLiteRt.so): run `make runtime`")
    }

    @Test func runtimeLibraryThatIsNotOne() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/libLiteRt.so"
        TestImages.write(Array("garbage".utf8), to: path)
        try expectSetupError([], environment: ["PLANTLEAF_LITERT_LIB": path], mentions: "cannot load \(path)")
    }

    @Test func usageErrors() throws {
        for arguments in [["--top-k", "0"], ["--threads", "zero"], ["--format", "xml"], ["--frobnicate"]] {
            let result = try runPlantLeaf(["classify"] + arguments + [TestPaths.appleScabLeaf])
            #expect(result.status == 2 && result.stderrLines.count == 1 && result.stderr.contains("--help"), "\(arguments): \(result.stderr)")
        }
        #expect(try runPlantLeaf(["classify"]).status == 2)
        #expect(try runPlantLeaf(["nonsense"]).status == 2)
    }
}
