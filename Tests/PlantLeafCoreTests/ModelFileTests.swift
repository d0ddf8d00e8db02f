import Glibc
import PlantLeafCore
import PlantLeafTestSupport
import Testing

/// The model check runs before LiteRT, which follows a model's offsets unchecked: truncated and
/// bit-flipped models crashed libLiteRt.so 2.3.0 until this check refused them.
@Suite struct ModelFileTests {
    let model = TestModels.addition()

    func check(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { contents in
            try ModelFile.check(contents: contents, path: "test.tflite")
        }
    }

    @Test func acceptsAWellFormedModel() throws {
        try check(model)
    }

    @Test func refusesEveryTruncation() {
        for length in 0..<model.count {
            #expect(throws: RuntimeError.self, "cut to \(length) of \(model.count) bytes") {
                try check(Array(model.prefix(length)))
            }
        }
    }

    @Test func namesWhereTheStructureBreaks() {
        var broken = model
        // The root table's offset, pointed past the end of the file.
        broken.replaceSubrange(0..<4, with: [0xF0, 0xFF, 0, 0])
        #expect(throws: RuntimeError.damagedModel(path: "test.tflite", reason: "root table offset points past the end of the \(model.count)-byte file")) {
            try check(broken)
        }
        var foreign = model
        foreign.replaceSubrange(4..<8, with: Array("ZIP!".utf8))
        #expect(throws: RuntimeError.notAModel(path: "test.tflite", reason: "no TFL3 identifier at byte 4")) {
            try check(foreign)
        }
    }

    /// Every single-bit change either still checks out or is refused; none may trap.
    @Test func survivesEverySingleBitFlip() {
        var refused = 0
        for bit in 0..<(model.count * 8) {
            var flipped = model
            flipped[bit / 8] ^= 1 << (bit % 8)
            do { try check(flipped) } catch { refused += 1 }
        }
        // Flips in names, scalars and padding are harmless; flips in offsets and lengths are not.
        #expect(refused > model.count)
    }

    @Test func validatesTheSharedModelsAndRefusesATruncatedCopy() throws {
        for path in [TestPaths.defaultModel, TestPaths.floatModel, TestPaths.imagenetModel] {
            _ = try ModelFile(path: path)
        }
        let bytes = try FileReader.readAll(path: TestPaths.defaultModel)
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let truncated = folder + "/truncated.tflite"
        TestImages.write(Array(bytes.prefix(bytes.count - 4096)), to: truncated)
        #expect(throws: RuntimeError.self) { try ModelFile(path: truncated) }
        do {
            _ = try ModelFile(path: truncated)
        } catch {
            #expect(error.message == "model \(truncated) is damaged")
            #expect(error.description.hasPrefix("model \(truncated) is damaged: "))
            #expect(error.details?.isEmpty == false)
        }
    }

    /// LiteRT compiles the bytes that were checked, never the path again: a damaged file moved
    /// into the model's place after the check does not reach it, and the interpreter keeps the
    /// checked bytes mapped for as long as it needs them.
    @Test func interpreterCompilesTheCheckedBytesNotWhatThePathHoldsLater() throws {
        let folder = TestPaths.temporaryDirectory()
        let path = folder + "/model.tflite"
        let original = try FileReader.readAll(path: TestPaths.defaultModel)
        TestImages.write(original, to: path)
        var checked: ModelFile? = try ModelFile(path: path)

        let damaged = folder + "/damaged.tflite"
        TestImages.write(Array(original.prefix(original.count / 2)), to: damaged)
        #expect(rename(damaged, path) == 0)
        #expect(throws: RuntimeError.self) { try ModelFile(path: path) }

        var fromCheckedBytes: Interpreter? = try Interpreter(model: checked!, options: TestPaths.runtime)
        checked = nil
        #expect(try isMapped(path), "the interpreter let go of the model bytes LiteRT reads")
        let reference = try Interpreter(modelPath: TestPaths.defaultModel, options: TestPaths.runtime)
        let leaf = try ImageDecoder().decode(FileReader.readAll(path: TestPaths.plantVillageImages()[0]))
        let scores = try outputBytes(of: fromCheckedBytes!, for: leaf)
        // Computed outside #expect: Swift 6.0's macro cannot hold a throwing call.
        let referenceScores = try outputBytes(of: reference, for: leaf)
        #expect(scores == referenceScores)
        #expect(Set(scores).count > 1, "the model gave every class the same score")
        fromCheckedBytes = nil
        #expect(try !isMapped(path), "the model bytes outlived their interpreter")
    }

    /// Whether this process maps the file that was at `path` (also once another took its place).
    private func isMapped(_ path: String) throws -> Bool {
        String(decoding: try FileReader.readAll(path: "/proc/self/maps"), as: UTF8.self).contains(path)
    }

    private func outputBytes(of interpreter: Interpreter, for image: RGBImage) throws -> [UInt8] {
        let size = interpreter.inputSize
        let pixels = Resampler.resize(image, width: size.width, height: size.height).pixels
        let quantizer = InputQuantizer(tensor: interpreter.input)
        try interpreter.writeInput { tensor in pixels.withUnsafeBufferPointer { quantizer.write($0, into: tensor) } }
        try interpreter.invoke()
        return try interpreter.readOutput { Array($0) }
    }
}
