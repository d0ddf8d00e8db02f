import PlantLeafCore
import PlantLeafTestSupport
import Testing

/// The leaf reference file, the likeness measure, and the verdict's new readings: the generalist's
/// cuts, the colour-cast balance, the edges of a field scene, a picture too small or off-centre.
@Suite struct LeafReferenceTests {
    static func distribution(peak: Int, classes: Int = 1001) -> [Double] {
        (0..<classes).map { $0 == peak ? 0.9 : 0.1 / Double(classes - 1) }
    }

    static let reference = try! LeafReference(meanOf: (0..<20).map { distribution(peak: 100 + $0 % 4) })

    @Test func likenessIsTheBhattacharyyaCoefficient() throws {
        let uniform = [Double](repeating: 1.0 / 1001, count: 1001)
        let same = try LeafReference(meanOf: Array(repeating: uniform, count: 20))
        #expect(abs(same.likeness(uniform) - 1) < 1e-9)
        let onlyFirst = (0..<1001).map { $0 == 0 ? 1.0 : 0 }, onlyLast = (0..<1001).map { $0 == 1000 ? 1.0 : 0 }
        #expect(try LeafReference(meanOf: Array(repeating: onlyFirst, count: 20)).likeness(onlyLast) == 0)
        #expect(Self.reference.likeness(Self.distribution(peak: 101)) > Self.reference.likeness(Self.distribution(peak: 900)))
    }

    @Test func fileRoundTripsToTheSameLikeness() throws {
        let text = Self.reference.text
        let read = try LeafReference.parse(Array(text.utf8), path: "r.txt", expectedClasses: 1001)
        #expect(read.photoCount == 20 && read.distribution.count == 1001)
        for peak in [0, 101, 500] {
            #expect(abs(read.likeness(Self.distribution(peak: peak)) - Self.reference.likeness(Self.distribution(peak: peak))) < 1e-6)
        }
        #expect(read.text == text)
    }

    @Test func damagedWrongLengthAndForeignFilesAreRefusedByName() throws {
        let text = Self.reference.text
        #expect(throws: LeafReferenceError.notAReference(path: "r.txt")) {
            try LeafReference.parse(Array("hello\n".utf8), path: "r.txt", expectedClasses: 1001)
        }
        // One value changed: the checksum no longer matches.
        let altered = text.replacingOccurrences(of: "\nphotos 20\n", with: "\nphotos 21\n")
        #expect(throws: LeafReferenceError.damaged(path: "r.txt", problem: "its checksum does not match its contents")) {
            try LeafReference.parse(Array(altered.utf8), path: "r.txt", expectedClasses: 1001)
        }
        // Cut short.
        #expect(throws: LeafReferenceError.self) { try LeafReference.parse(Array(text.utf8.prefix(text.utf8.count / 2)), path: "r.txt", expectedClasses: 1001) }
        #expect(throws: LeafReferenceError.wrongLength(path: "r.txt", classes: 1001, expected: 38)) {
            try LeafReference.parse(Array(text.utf8), path: "r.txt", expectedClasses: 38)
        }
        #expect(throws: LeafReferenceError.tooFewPhotos(count: 19, minimum: 20)) {
            try LeafReference(meanOf: Array(repeating: Self.distribution(peak: 1), count: 19))
        }
        let missing = TestPaths.temporaryDirectory() + "/none.txt"
        #expect(throws: LeafReferenceError.self) { try LeafReference.load(path: missing, expectedClasses: 1001) }
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
