@testable import PlantLeafCore
import PlantLeafSupport
import PlantLeafTestSupport
import Testing

/// The leaf reference file, the likeness measure, and the verdict's new readings: the generalist's
/// cuts, the colour-cast balance, the edges of a field scene, a picture too small or off-centre.
@Suite struct LeafReferenceTests {
    static func distribution(peak: Int, classes: Int = 1001) -> [Double] {
        (0..<classes).map { $0 == peak ? 0.9 : 0.1 / Double(classes - 1) }
    }

    /// The uint8 MobileNetV2's name and size, as the earlier formats' references were made with it.
    static let generalist = "mobilenet_v2_1.0_224_quant.tflite 3577760"
    static let reference = try! LeafReference(meanOf: (0..<20).map { distribution(peak: 100 + $0 % 4) }, inputSide: 224, generalist: Self.generalist)

    @Test func likenessIsTheBhattacharyyaCoefficient() throws {
        let uniform = [Double](repeating: 1.0 / 1001, count: 1001)
        let same = try LeafReference(meanOf: Array(repeating: uniform, count: 20), inputSide: 224, generalist: Self.generalist)
        #expect(abs(same.likeness(uniform) - 1) < 1e-9)
        let onlyFirst = (0..<1001).map { $0 == 0 ? 1.0 : 0 }, onlyLast = (0..<1001).map { $0 == 1000 ? 1.0 : 0 }
        #expect(try LeafReference(meanOf: Array(repeating: onlyFirst, count: 20), inputSide: 224, generalist: Self.generalist).likeness(onlyLast) == 0)
        #expect(Self.reference.likeness(Self.distribution(peak: 101)) > Self.reference.likeness(Self.distribution(peak: 900)))
    }

    @Test func fileRoundTripsToTheSameLikeness() throws {
        let text = Self.reference.text
        let read = try LeafReference.parse(Array(text.utf8), path: "r.txt", expectedClasses: 1001, inputSide: 224, generalist: Self.generalist)
        #expect(read.photoCount == 20 && read.distribution.count == 1001)
        for peak in [0, 101, 500] {
            #expect(abs(read.likeness(Self.distribution(peak: peak)) - Self.reference.likeness(Self.distribution(peak: peak))) < 1e-6)
        }
        #expect(read.text == text)
    }

    /// The generalist's distributions change with its input size, so a reference says the side
    /// it was made at and is refused at any other; one of the first format, without the line,
    /// was made at 224.
    @Test func aReferenceIsUsedOnlyAtTheSideItWasMadeAt() throws {
        let small = try LeafReference(meanOf: (0..<20).map { Self.distribution(peak: 100 + $0 % 4) }, inputSide: 160, generalist: Self.generalist)
        #expect(small.text.hasPrefix("plantleaf-leaf-reference 3\nphotos 20\nclasses 1001\ninput 160\ngeneralist \(Self.generalist)\n"))
        let read = try LeafReference.parse(Array(small.text.utf8), path: "r.txt", expectedClasses: 1001, inputSide: 160, generalist: Self.generalist)
        #expect(read.inputSide == 160 && read.text == small.text)
        #expect(throws: LeafReferenceError.wrongInputSide(path: "r.txt", side: 160, expected: 224)) {
            try LeafReference.parse(Array(small.text.utf8), path: "r.txt", expectedClasses: 1001, inputSide: 224, generalist: Self.generalist)
        }
        // The first format: the same lines without the input line, under its own header and checksum.
        let current = Self.reference.text
        let body = current.prefix(upTo: try #require(current.range(of: "sha256 ")).lowerBound)
            .replacingOccurrences(of: "plantleaf-leaf-reference 3\n", with: "plantleaf-leaf-reference 1\n")
            .replacingOccurrences(of: "\ninput 224\ngeneralist \(Self.generalist)\n", with: "\n")
        let first = Array((body + "sha256 " + SHA256.hex(of: Array(body.utf8)) + "\n").utf8)
        let old = try LeafReference.parse(first, path: "old.txt", expectedClasses: 1001, inputSide: 224, generalist: Self.generalist)
        let same = try LeafReference.parse(Array(current.utf8), path: "r.txt", expectedClasses: 1001, inputSide: 224, generalist: Self.generalist)
        #expect(old.inputSide == 224 && old.photoCount == 20 && old.distribution == same.distribution)
        #expect(throws: LeafReferenceError.wrongInputSide(path: "old.txt", side: 224, expected: 128)) {
            try LeafReference.parse(first, path: "old.txt", expectedClasses: 1001, inputSide: 128, generalist: Self.generalist)
        }
    }

    /// Another generalist's outputs are not comparable with a reference, whatever its classes
    /// and side: a reference says which model made it (file name and size) and is refused for any
    /// other. The earlier formats were all made with the uint8 MobileNetV2, known by its name.
    @Test func aReferenceIsUsedOnlyWithTheGeneralistItWasMadeWith() throws {
        let chosen = "mobilenet_v1_0.25_128_quant.tflite 525598"
        let made = try LeafReference(meanOf: (0..<20).map { Self.distribution(peak: 100 + $0 % 4) }, inputSide: 128, generalist: chosen)
        #expect(try LeafReference.parse(Array(made.text.utf8), path: "r.txt", expectedClasses: 1001, inputSide: 128, generalist: chosen).generalist == chosen)
        #expect(throws: LeafReferenceError.wrongGeneralist(path: "r.txt", madeWith: chosen, expected: Self.generalist)) {
            try LeafReference.parse(Array(made.text.utf8), path: "r.txt", expectedClasses: 1001, inputSide: 128, generalist: Self.generalist)
        }
        // The same name at another size is another model.
        #expect(throws: LeafReferenceError.wrongGeneralist(path: "r.txt", madeWith: chosen, expected: "mobilenet_v1_0.25_128_quant.tflite 600000")) {
            try LeafReference.parse(Array(made.text.utf8), path: "r.txt", expectedClasses: 1001, inputSide: 128,
                                    generalist: "mobilenet_v1_0.25_128_quant.tflite 600000")
        }
        // A reference of the second format (no generalist line) was made with the uint8 MobileNetV2.
        let body = Self.reference.text.prefix(upTo: try #require(Self.reference.text.range(of: "sha256 ")).lowerBound)
            .replacingOccurrences(of: "plantleaf-leaf-reference 3\n", with: "plantleaf-leaf-reference 2\n")
            .replacingOccurrences(of: "generalist \(Self.generalist)\n", with: "")
        let second = Array((body + "sha256 " + SHA256.hex(of: Array(body.utf8)) + "\n").utf8)
        #expect(try LeafReference.parse(second, path: "old.txt", expectedClasses: 1001, inputSide: 224, generalist: Self.generalist).inputSide == 224)
        #expect(throws: LeafReferenceError.wrongGeneralist(path: "old.txt", madeWith: "mobilenet_v2_1.0_224_quant.tflite", expected: chosen)) {
            try LeafReference.parse(second, path: "old.txt", expectedClasses: 1001, inputSide: 224, generalist: chosen)
        }
    }

    @Test func damagedWrongLengthAndForeignFilesAreRefusedByName() throws {
        let text = Self.reference.text
        #expect(throws: LeafReferenceError.notAReference(path: "r.txt")) {
            try LeafReference.parse(Array("hello\n".utf8), path: "r.txt", expectedClasses: 1001, inputSide: 224, generalist: Self.generalist)
        }
        // One value changed: the checksum no longer matches.
        let altered = text.replacingOccurrences(of: "\nphotos 20\n", with: "\nphotos 21\n")
        #expect(throws: LeafReferenceError.damaged(path: "r.txt", problem: "its checksum does not match its contents")) {
            try LeafReference.parse(Array(altered.utf8), path: "r.txt", expectedClasses: 1001, inputSide: 224, generalist: Self.generalist)
        }
        // Cut short.
        #expect(throws: LeafReferenceError.self) { try LeafReference.parse(Array(text.utf8.prefix(text.utf8.count / 2)), path: "r.txt", expectedClasses: 1001, inputSide: 224, generalist: Self.generalist) }
        #expect(throws: LeafReferenceError.wrongLength(path: "r.txt", classes: 1001, expected: 38)) {
            try LeafReference.parse(Array(text.utf8), path: "r.txt", expectedClasses: 38, inputSide: 224, generalist: Self.generalist)
        }
        #expect(throws: LeafReferenceError.tooFewPhotos(count: 19, minimum: 20)) {
            try LeafReference(meanOf: Array(repeating: Self.distribution(peak: 1), count: 19), inputSide: 224, generalist: Self.generalist)
        }
        let missing = TestPaths.temporaryDirectory() + "/none.txt"
        #expect(throws: LeafReferenceError.self) { try LeafReference.load(path: missing, expectedClasses: 1001, inputSide: 224, generalist: Self.generalist) }
    }
}

@Suite struct VerdictReadingTests {
    static let confident = ScoredClass(index: 37, label: "Tomato___healthy", score: 0.99)
    static let classify = VerdictPolicy(checks: .classifyDefault)

    static func judge(_ image: RGBImage, likeness: Double? = nil, readSide: Int? = nil, readShare: Double = 1,
                      jpegQuality: Int? = nil, policy: VerdictPolicy = classify) -> Judgement {
        let picture = PictureStatistics(image: image)
        var readings = VerdictReadings(picture: picture, top: confident, leafLikeness: likeness, readSide: readSide, readShare: readShare,
                                       jpegQuality: jpegQuality)
        var gains = ChannelGains.identity
        if picture.greenShare < policy.minimumGreenShare {
            gains = WhiteBalance.gains(of: image)
            readings.balancedGreenShare = WhiteBalance.greenShare(of: image, gains: gains)
        }
        readings.edges = SceneEdges(image: image, gains: gains)
        return policy.judge(readings)
    }

    /// The generalist's two cuts: far from leaves is no-leaf, between is uncertain, never the other way.
    @Test func generalistCutsGiveNoLeafThenUncertainThenDiagnosis() {
        let leaf = VerdictTestPictures.greenLeaf
        #expect(Self.judge(leaf, likeness: 0.01) == Judgement(verdict: .noLeaf, reason: .unlikeLeaves))
        #expect(Self.judge(leaf, likeness: 0.2) == Judgement(verdict: .uncertain, reason: .notClearlyLeaf))
        #expect(Self.judge(leaf, likeness: 0.6) == Judgement(verdict: .diagnosis, reason: nil))
        // Skipped (nil) is never a refusal: the outputs say it was skipped.
        #expect(Self.judge(leaf, likeness: nil) == Judgement(verdict: .diagnosis, reason: nil))
        #expect(Self.judge(leaf, likeness: 0.01, policy: VerdictPolicy(checks: [.picture, .vegetation, .score])).verdict == .diagnosis)
    }

    /// Refused only for the true reason: a picture the generalist finds clearly leaf-like is not
    /// drawn for its flat background (a leaf on a sheet of paper) nor without a leaf for lack of
    /// green (a brown leaf); one it does not find leaf-like still is.
    @Test func aClearlyLeafLikePictureIsNotRefusedForItsBackgroundOrColour() {
        let clearly = Self.classify.clearlyLeafFrom
        // A green leaf on an exactly flat sheet: most mid-tone pixels equal their neighbour.
        let onPaper = VerdictTestPictures.image { x, y, grain in
            let u = Double(x - VerdictTestPictures.side / 2) / 40, v = Double(y - VerdictTestPictures.side / 2) / 30
            return u * u + v * v <= 1 ? (60 + grain, 130 + grain, 45 + grain) : (206, 221, 218)
        }
        #expect(PictureStatistics(image: onPaper).flatShare > Self.classify.largestFlatShare)
        #expect(Self.judge(onPaper, likeness: clearly) == Judgement(verdict: .diagnosis, reason: nil))
        #expect(Self.judge(onPaper, likeness: clearly - 0.01) == Judgement(verdict: .noPicture, reason: .drawn))
        #expect(Self.judge(VerdictTestPictures.brownLeaf, likeness: clearly) == Judgement(verdict: .diagnosis, reason: nil))
        #expect(Self.judge(VerdictTestPictures.brownLeaf, likeness: clearly - 0.01) == Judgement(verdict: .noLeaf, reason: .noGreen))
        // The generalist's opinion does not make an empty frame a picture, nor counts without its check.
        #expect(Self.judge(VerdictTestPictures.uniform(2), likeness: 0.9) == Judgement(verdict: .noPicture, reason: .dark))
        #expect(Self.judge(VerdictTestPictures.brownLeaf, likeness: 0.9, policy: VerdictPolicy(checks: [.picture, .vegetation, .score]))
            == Judgement(verdict: .noLeaf, reason: .noGreen))
    }

    /// A leaf under a magenta grow light (red and blue up, green down) keeps its diagnosis.
    @Test func colourCastIsBalancedOut() {
        func cast(_ image: RGBImage, redBlue: Double, green: Double) -> RGBImage {
            var pixels = image.pixels
            for index in stride(from: 0, to: pixels.count, by: 3) {
                pixels[index] = UInt8(min(255, (Double(pixels[index]) * redBlue).rounded()))
                pixels[index + 1] = UInt8(min(255, (Double(pixels[index + 1]) * green).rounded()))
                pixels[index + 2] = UInt8(min(255, (Double(pixels[index + 2]) * redBlue).rounded()))
            }
            return RGBImage(width: image.width, height: image.height, pixels: pixels)
        }
        let strong = cast(VerdictTestPictures.greenLeaf, redBlue: 1.5, green: 0.55)
        #expect(PictureStatistics(image: strong).greenShare < 0.10)
        #expect(Self.judge(strong, likeness: 0.6).verdict == .diagnosis)
        // A grey scene stays no-leaf: balance finds no cast to undo.
        #expect(Self.judge(VerdictTestPictures.greyTexture) == Judgement(verdict: .noLeaf, reason: .noGreen))
    }

    /// The balanced count with no cast is the statistics' own green count, pixel for pixel.
    @Test func identityGainsCountAsThePictureStatisticsDo() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let pixels = (0..<(64 * 48 * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let image = RGBImage(width: 64, height: 48, pixels: pixels)
            #expect(WhiteBalance.greenShare(of: image, gains: .identity) == PictureStatistics(image: image).greenShare)
        }
    }

    /// Green to every edge is a field scene; a leaf on its background is not.
    @Test func greenToEveryEdgeIsAFieldScene() {
        let canopy = VerdictTestPictures.image { x, y, grain in (x * 7 + y * 3) % 40 < 10 ? (30 + grain, 90 + grain, 20) : (90 + grain, 190 + grain, 70) }
        #expect(SceneEdges(image: canopy).leastGreenSide >= 0.9)
        #expect(Self.judge(canopy, likeness: 0.5) == Judgement(verdict: .uncertain, reason: .fieldScene))
        #expect(SceneEdges(image: VerdictTestPictures.greenLeaf).leastGreenSide < 0.1)
        #expect(Self.judge(VerdictTestPictures.greenLeaf, likeness: 0.5).verdict == .diagnosis)
    }

    /// The reason is the true one: a tiny picture is too small, an empty middle of a panorama is
    /// off-centre, not "no picture".
    @Test func tinyAndOffCentrePicturesSaySo() {
        #expect(Self.judge(VerdictTestPictures.greenLeaf, readSide: 8) == Judgement(verdict: .uncertain, reason: .tooSmall))
        #expect(Self.judge(VerdictTestPictures.uniform(250), readShare: 0.064) == Judgement(verdict: .uncertain, reason: .offCentre))
        #expect(Self.judge(VerdictTestPictures.uniform(250)) == Judgement(verdict: .noPicture, reason: .blownOut))
    }

    /// A JPEG below the readable quality that reads as flat, drawn or without a leaf is too
    /// compressed, not "no picture"; a dark one is still dark, a leaf still a diagnosis, and at
    /// the cut or without a quality (a PNG) nothing changes.
    @Test func heavilyCompressedPicturesAreTooCompressed() {
        let tooCompressed = Judgement(verdict: .uncertain, reason: .tooCompressed)
        let cut = Self.classify.lowestReadableJPEGQuality
        #expect(Self.judge(VerdictTestPictures.uniform(128), jpegQuality: 5) == tooCompressed)
        #expect(Self.judge(VerdictTestPictures.colourBars, jpegQuality: cut - 1) == tooCompressed)
        #expect(Self.judge(VerdictTestPictures.brownLeaf, jpegQuality: 10) == tooCompressed)
        #expect(Self.judge(VerdictTestPictures.greenLeaf, likeness: 0.01, jpegQuality: 10) == tooCompressed)
        #expect(Self.judge(VerdictTestPictures.uniform(10), jpegQuality: 5) == Judgement(verdict: .noPicture, reason: .dark))
        #expect(Self.judge(VerdictTestPictures.greenLeaf, jpegQuality: 5).verdict == .diagnosis)
        #expect(Self.judge(VerdictTestPictures.colourBars, jpegQuality: cut) == Judgement(verdict: .noPicture, reason: .drawn))
        #expect(Self.judge(VerdictTestPictures.colourBars) == Judgement(verdict: .noPicture, reason: .drawn))
        #expect(Self.judge(VerdictTestPictures.brownLeaf, jpegQuality: 75) == Judgement(verdict: .noLeaf, reason: .noGreen))
    }
}

/// The generalist run at a smaller input than its own: MobileNetV2's file pools with a fixed 7×7
/// window, which XNNPACK refuses on a smaller feature map until the window follows it.
@Suite struct GeneralistInputSideTests {
    @Test func theModelsGlobalPoolIsFoundAndSizedForEachSide() throws {
        let model = try ModelFile(path: TestPaths.imagenetModel)
        let windows = try withExtendedLifetime(model) { try GlobalPoolWindow.find(in: model.bytes) }
        #expect(windows.count == 1)
        let window = try #require(windows.first)
        #expect(window.featureSide == 7 && window.modelInputSide == 224)
        #expect([224, 160, 128, 100].map { window.side(forInputSide: $0) } == [7, 5, 4, 4])
        // The leaf model pools with MEAN, whatever its input: nothing to change there.
        let leafModel = try ModelFile(path: TestPaths.defaultModel)
        let leafWindows = try withExtendedLifetime(leafModel) { try GlobalPoolWindow.find(in: leafModel.bytes) }
        #expect(leafWindows.isEmpty)
    }

    @Test func aLeafLooksMuchTheSameToTheGeneralistAt160AsAt224() throws {
        let leaf = try ImageDecoder().decode(try FileReader.readAll(path: TestPaths.appleScabLeaf))
        let own = try SecondOpinion(options: .init(modelPath: TestPaths.imagenetModel, referencePath: nil), runtime: TestPaths.runtime)
        let small = try SecondOpinion(options: .init(modelPath: TestPaths.imagenetModel, referencePath: nil, inputSide: 160),
                                      runtime: TestPaths.runtime)
        #expect(own.inputSide == 224 && small.inputSide == 160)
        let atOwn = try own.distribution(of: leaf).distribution, atSmall = try small.distribution(of: leaf).distribution
        #expect(atSmall.count == 1001 && abs(atSmall.reduce(0, +) - 1) < 1e-6)
        let reference = try LeafReference(meanOf: Array(repeating: atOwn, count: 20), inputSide: 224, generalist: own.generalist)
        let likeness = reference.likeness(atSmall)
        #expect(likeness > 0.5 && likeness < 1, "\(likeness)")
        // The window was changed in this process's copy only: the model at its own side still runs.
        #expect(try SecondOpinion(options: .init(modelPath: TestPaths.imagenetModel, referencePath: nil), runtime: TestPaths.runtime)
            .distribution(of: leaf).distribution == atOwn)
    }

    @Test func aSideOutsideTheRangeIsRefusedByName() {
        #expect(throws: RuntimeError.invalidInputSide(0, allowed: 32...1024)) {
            try Interpreter(modelPath: TestPaths.imagenetModel, options: TestPaths.runtime, inputSide: 0)
        }
    }
}
