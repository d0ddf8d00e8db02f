import Glibc
import PlantLeafCore
import PlantLeafTestSupport
import Testing

/// classify, camera and bench refuse the same hostile models the same way: one line naming the
/// tensor and why, exit 2, before any image is read.
@Suite struct HostileModelCLITests {
    static let image = TestTensor("image", .int8, [1, 4, 4, 3], quantization: (1.0 / 255, -128))
    static let scores = TestTensor("scores", .int8, [1, 38], quantization: (1.0 / 256, -128))

    static let models: [(name: String, input: TestTensor, outputs: [TestTensor], reason: String)] = [
        ("zero-scale", TestTensor("image", .int8, [1, 4, 4, 3], quantization: (0, -128)), [scores],
         "input image has quantisation scale 0.0; a positive finite scale is needed"),
        ("nan-output", image, [TestTensor("scores", .int8, [1, 38], quantization: (.nan, -128))],
         "output scores has quantisation scale nan; a positive finite scale is needed"),
        ("huge", TestTensor("image", .float32, [1, 30_000, 30_000, 3]), [scores],
         "input image is [1, 30000, 30000, 3] float32, more than the 64 MiB tensor budget"),
        ("two-outputs", image, [scores, TestTensor("boxes", .float32, [1, 4])],
         "it has 2 outputs (scores, boxes); PlantLeaf reads models with one output, [1, classes]"),
    ]

    @Test func everyCommandRefusesAtLoadWithExitTwo() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        for model in Self.models {
            let path = folder + "/\(model.name).tflite"
            TestImages.write(TestModels.imageClassifier(input: model.input, outputs: model.outputs), to: path)
            let commands: [(name: String, arguments: [String])] = [
                ("classify", ["classify", "--model", path, TestPaths.appleScabLeaf]),
                ("camera", ["camera", "--model", path, "--input", TestPaths.appleScabLeaf]),
                ("bench", ["bench", "--model", path, "--synthetic", "--runs", "1", "--warmup", "0"]),
            ]
            for command in commands {
                let result = try runPlantLeaf(command.arguments, timeLimit: 60)
                #expect(result.status == 2, "\(command.arguments)")
                #expect(result.stderrLines == ["plantleaf \(command.name): model \(path) is not supported: \(model.reason)"],
                        "\(command.arguments)")
            }
        }
    }
}
