import PlantLeafCore
import PlantLeafTestSupport
import Testing

/// A model declares its own quantisation, sizes and outputs; a valid flatbuffer with values no
/// converter writes is refused when it loads, naming the tensor and why, never trusted.
@Suite struct HostileModelTests {
    static let image = TestTensor("image", .int8, [1, 4, 4, 3], quantization: (1.0 / 255, -128))
    static let scores = TestTensor("scores", .int8, [1, 48], quantization: (1.0 / 256, -128))

    /// The reason the model is refused, "loaded", or any other error's text.
    func loadError(input: TestTensor = image, outputs: [TestTensor] = [scores]) -> String {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/hostile.tflite"
        TestImages.write(TestModels.imageClassifier(input: input, outputs: outputs), to: path)
        do {
            _ = try Interpreter(modelPath: path, options: TestPaths.runtime)
            return "loaded"
        } catch {
            guard case .unsupportedModel(let refused, let reason) = error, refused == path else { return "\(error)" }
            return reason
        }
    }

    @Test(arguments: [(Float(0), "0.0"), (.nan, "nan"), (.infinity, "inf"), (-0.5, "-0.5")])
    func badInputScaleIsRefused(scale: Float, shown: String) throws {
        for type in [TestTensor.FileType.int8, .uint8] {
            let input = TestTensor("image", type, [1, 4, 4, 3], quantization: (scale, type == .int8 ? -128 : 0))
            #expect(loadError(input: input) == "input image has quantisation scale \(shown); a positive finite scale is needed")
        }
    }

    @Test(arguments: [(Float(0), "0.0"), (.nan, "nan"), (-.infinity, "-inf")])
    func badOutputScaleIsRefused(scale: Float, shown: String) throws {
        let output = TestTensor("scores", .uint8, [1, 48], quantization: (scale, 0))
        #expect(loadError(outputs: [output]) == "output scores has quantisation scale \(shown); a positive finite scale is needed")
    }

    @Test func zeroPointOutsideTheTypeIsRefused() throws {
        let input = TestTensor("image", .int8, [1, 4, 4, 3], quantization: (1.0 / 255, 200))
        #expect(loadError(input: input) == "input image has quantisation zero point 200, outside int8's -128...127")
        let output = TestTensor("scores", .uint8, [1, 48], quantization: (1.0 / 256, -1))
        #expect(loadError(outputs: [output]) == "output scores has quantisation zero point -1, outside uint8's 0...255")
    }

    /// 30000x30000 cost 5 GB and 29 s per image; dimensions whose product overflows an Int
    /// must not trap either.
    @Test func tensorsOverTheBudgetAreRefused() throws {
        let huge = TestTensor("image", .int8, [1, 30_000, 30_000, 3], quantization: (1.0 / 255, -128))
        #expect(loadError(input: huge) == "input image is [1, 30000, 30000, 3] int8, more than the 64 MiB tensor budget")
        let overflowing = TestTensor("image", .uint8, [1, Int32.max - 1, Int32.max - 1, 3], quantization: (1.0 / 255, 0))
        #expect(loadError(input: overflowing)
                == "input image is [1, 2147483646, 2147483646, 3] uint8, more than the 64 MiB tensor budget")
        let manyClasses = TestTensor("scores", .float32, [1, 20_000_000])
        #expect(loadError(outputs: [manyClasses]) == "output scores is [1, 20000000] float32, more than the 64 MiB tensor budget")
        // The budget's edge: 4729x4729 int8 is within it.
        let largest = TestTensor("image", .int8, [1, 4729, 4729, 3], quantization: (1.0 / 255, -128))
        #expect(loadError(input: largest) != "input image is [1, 4729, 4729, 3] int8, more than the 64 MiB tensor budget")
    }

    @Test func twoOutputsAreRefused() throws {
        let boxes = TestTensor("boxes", .float32, [1, 4])
        #expect(loadError(outputs: [Self.scores, boxes])
                == "it has 2 outputs (scores, boxes); PlantLeaf reads models with one output, [1, classes]")
    }
}
