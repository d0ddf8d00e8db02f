import PlantLeafKit
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
            try ModelFile.validate(path: path)
        }
        let bytes = try FileReader.readAll(path: TestPaths.defaultModel)
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let truncated = folder + "/truncated.tflite"
        TestImages.write(Array(bytes.prefix(bytes.count - 4096)), to: truncated)
        #expect(throws: RuntimeError.self) { try ModelFile.validate(path: truncated) }
        do {
            try ModelFile.validate(path: truncated)
        } catch {
            #expect(error.message == "model \(truncated) is damaged")
            #expect(error.description.hasPrefix("model \(truncated) is damaged: "))
            #expect(error.details?.isEmpty == false)
        }
    }
}
