import PlantLeafCore
import Testing

/// Pictures the tests make at the model's size, 224 x 224: empty frames, leaf-like textures.
enum VerdictTestPictures {
    static let side = 224

    /// An image whose pixel at (x, y) is `color(x, y, grain)`, `grain` being -8...7 from a fixed
    /// xorshift sequence, the fine texture a photo has.
    static func image(_ color: (_ x: Int, _ y: Int, _ grain: Int) -> (Int, Int, Int)) -> RGBImage {
        var noise: UInt32 = 0x2545F491
        var pixels: [UInt8] = []
        pixels.reserveCapacity(side * side * 3)
        for y in 0..<side {
            for x in 0..<side {
                noise ^= noise << 13; noise ^= noise >> 17; noise ^= noise << 5
                let (red, green, blue) = color(x, y, Int(noise & 15) - 8)
                pixels += [red, green, blue].map { UInt8(min(max($0, 0), 255)) }
            }
        }
        return RGBImage(width: side, height: side, pixels: pixels)
    }

    static func uniform(_ level: Int) -> RGBImage { image { _, _, _ in (level, level, level) } }

    /// A covered or unlit sensor at high gain: a dark level with independent noise per channel.
    static let lowLightNoise = image { x, y, grain in (14 + grain, 14 + (grain * 7 + x) % 9, 12 + (grain * 3 + y) % 7) }

    /// A leaf-shaped ellipse on the lab photos' neutral grey background, its tissue coloured by
    /// `tissue(x, y, grain)`.
    static func leaf(_ tissue: @escaping (_ x: Int, _ y: Int, _ grain: Int) -> (Int, Int, Int)) -> RGBImage {
        image { x, y, grain in
            let u = Double(x - side / 2) / 90, v = Double(y - side / 2) / 60
            return u * u + v * v <= 1 ? tissue(x, y, grain) : (150 + grain, 150 + grain, 146 + grain)
        }
    }

    /// Healthy green tissue with lighter veins every 20 pixels.
    static let greenLeaf = leaf { x, _, grain in x % 20 < 2 ? (120 + grain, 170 + grain, 90 + grain) : (60 + grain, 130 + grain, 45 + grain) }

    /// A diseased leaf: green tissue, a yellowed band and dark-ringed brown spots over a third.
    static let spottedBrownLeaf = leaf { x, y, grain in
        let spot = (x / 16 + y / 16) % 3 == 0
        let ring = spot && (x % 16 < 2 || y % 16 < 2)
        if ring { return (60 + grain, 40 + grain, 25 + grain) }
        if spot { return (140 + grain, 95 + grain, 50 + grain) }
        if y > side / 2 + 20 { return (190 + grain, 180 + grain, 60 + grain) }
        return (70 + grain, 125 + grain, 50 + grain)
    }

    /// A leaf brown all over: no green tissue left.
    static let brownLeaf = leaf { _, _, grain in (140 + grain, 95 + grain, 50 + grain) }

    /// A driver's test pattern: eight colour bars at 75 % (white, yellow, cyan, green, magenta,
    /// red, blue, black), 28 pixels each. The green bar alone is 1/8 of the picture, more green
    /// than the vegetation check asks for, and the bars spread the luma widely.
    static let colourBars = image { x, _, _ in
        let bars = [(191, 191, 191), (191, 191, 0), (0, 191, 191), (0, 191, 0), (191, 0, 191), (191, 0, 0), (0, 0, 191), (0, 0, 0)]
        return bars[x * bars.count / side]
    }

    /// A grey, textured, well-lit scene: gravel, a wall, a page.
    static let greyTexture = image { x, y, grain in
        let level = 90 + (x * 7 + y * 13) % 80 + grain
        return (level, level, level + 3)
    }
}

@Suite struct PictureStatisticsTests {
    @Test func halfBlackHalfWhiteHasMidLevelAndFullSpread() {
        let picture = PictureStatistics(image: VerdictTestPictures.image { x, _, _ in x < 112 ? (0, 0, 0) : (255, 255, 255) })
        #expect(picture.pixelCount == 224 * 224)
        #expect(picture.luminanceMean == 127.5)
        #expect(picture.luminanceSpread == 127.5)
        #expect(picture.greenShare == 0)
    }

    @Test func lumaWeighsChannelsAsJPEGDoes() {
        // (77 x 200 + 150 x 100 + 29 x 50) / 256 = 31,850 / 256.
        let picture = PictureStatistics(image: RGBImage(width: 1, height: 1, pixels: [200, 100, 50]))
        #expect(picture.luminanceMean == 31_850.0 / 256)
        #expect(picture.luminanceSpread == 0)
    }

    @Test func rowsFedOneByOneGiveTheWholeImagesReadings() {
        let image = VerdictTestPictures.spottedBrownLeaf
        var byRows = PictureStatistics()
        image.pixels.withUnsafeBufferPointer { pixels in
            for row in 0..<image.height { byRows.add(row: pixels.baseAddress! + row * image.width * 3, pixelCount: image.width) }
        }
        #expect(byRows == PictureStatistics(image: image))
    }

    @Test func greenAndYellowTissueCountNeutralBrownAndDarkDoNot() {
        #expect(PictureStatistics.isGreenTissue(red: 60, green: 130, blue: 45))
        #expect(PictureStatistics.isGreenTissue(red: 190, green: 180, blue: 60), "yellowed")
        #expect(!PictureStatistics.isGreenTissue(red: 150, green: 150, blue: 146), "lab background")
        #expect(!PictureStatistics.isGreenTissue(red: 140, green: 95, blue: 50), "brown")
        #expect(!PictureStatistics.isGreenTissue(red: 200, green: 40, blue: 50), "red")
        // Green in chromaticity, but so dark (R + G + B = 60) that a few levels of noise decide it.
        #expect(!PictureStatistics.isGreenTissue(red: 15, green: 30, blue: 15))
    }

    @Test func emptyStatisticsReadZero() {
        let picture = PictureStatistics()
        #expect(picture.luminanceMean == 0 && picture.luminanceSpread == 0 && picture.greenShare == 0 && picture.flatShare == 0)
    }

    /// Colour bars are flat but where one bar meets the next; a textured leaf is not; a flat
    /// near-black background (a lab leaf on dark cloth) does not count, being no mid-tone.
    @Test func flatShareIsHighOnlyForDrawnPictures() {
        let bars = PictureStatistics(image: VerdictTestPictures.colourBars)
        // 6 bars of mid-tones (blue's luma is 21, black's 0), 28 pixels each: all but the last
        // of each bar's 28 in a row equal their neighbour.
        #expect(bars.midtonePixelCount == 6 * 28 * 224)
        #expect(bars.flatMidtonePixelCount == 6 * 27 * 224)
        #expect(PictureStatistics(image: VerdictTestPictures.greenLeaf).flatShare < 0.1)
        #expect(PictureStatistics(image: VerdictTestPictures.spottedBrownLeaf).flatShare < 0.1)
        let onDarkCloth = VerdictTestPictures.image { x, y, grain in
            let u = Double(x - 112) / 90, v = Double(y - 112) / 60
            return u * u + v * v <= 1 ? (60 + grain, 130 + grain, 45 + grain) : (3, 3, 3)
        }
        let leafOnDarkCloth = PictureStatistics(image: onDarkCloth)
        #expect(leafOnDarkCloth.flatShare < 0.1, "\(leafOnDarkCloth.flatShare)")
    }
}

@Suite struct VerdictDecisionTests {
    static let confident = ScoredClass(index: 37, label: "Tomato___healthy", score: 0.99)
    static let classify = VerdictPolicy(checks: .classifyDefault)
    static let camera = VerdictPolicy(checks: .cameraDefault)

    static func verdict(_ image: RGBImage, policy: VerdictPolicy = classify, top: ScoredClass = confident,
                        mirrored: ScoredClass? = nil) -> Verdict {
        policy.judge(VerdictReadings(picture: PictureStatistics(image: image), top: top, mirrored: mirrored)).verdict
    }

    /// Frames without content, by name (named arguments keep the pixels out of the test log).
    static let emptyFrames = ["dark": VerdictTestPictures.uniform(6), "black": VerdictTestPictures.uniform(0),
                              "bright": VerdictTestPictures.uniform(250), "white": VerdictTestPictures.uniform(255),
                              "flat grey": VerdictTestPictures.uniform(128), "low-light noise": VerdictTestPictures.lowLightNoise,
                              "colour bars": VerdictTestPictures.colourBars]

    @Test(arguments: emptyFrames.keys.sorted())
    func emptyFramesHaveNoPicture(name: String) throws {
        let image = try #require(Self.emptyFrames[name])
        #expect(Self.verdict(image) == .noPicture)
        #expect(Self.verdict(image, policy: Self.camera, mirrored: Self.confident) == .noPicture)
    }

    @Test func greenAndDiseasedLeavesGetADiagnosis() {
        for image in [VerdictTestPictures.greenLeaf, VerdictTestPictures.spottedBrownLeaf] {
            let picture = PictureStatistics(image: image)
            #expect(picture.greenShare >= 0.15, "green share \(picture.greenShare)")
            #expect(Self.verdict(image) == .diagnosis)
            #expect(Self.verdict(image, policy: Self.camera, mirrored: Self.confident) == .diagnosis)
        }
    }

    /// What the green check cannot tell: brown tissue has the colour of wood, fur and skin, so a
    /// leaf brown all over counts as no plant (docs/verdicts.md).
    @Test func greyScenesAndWhollyBrownLeavesHaveNoLeaf() {
        #expect(Self.verdict(VerdictTestPictures.greyTexture) == .noLeaf)
        #expect(Self.verdict(VerdictTestPictures.brownLeaf) == .noLeaf)
    }

    @Test func scoreBelowTheMinimumIsUncertain() {
        let unsure = ScoredClass(index: 29, label: "Tomato___Early_blight", score: 0.438)
        #expect(Self.verdict(VerdictTestPictures.greenLeaf, top: unsure) == .uncertain)
        #expect(Self.verdict(VerdictTestPictures.greenLeaf, policy: VerdictPolicy(checks: [.picture, .vegetation]), top: unsure) == .diagnosis)
    }

    @Test func mirroredPictureDisagreeingOrUnsureIsUncertain() {
        let leaf = VerdictTestPictures.greenLeaf
        let otherClass = ScoredClass(index: 20, label: "Potato___Early_blight", score: 0.852)
        let unsureSameClass = ScoredClass(index: 37, label: "Tomato___healthy", score: 0.449)
        #expect(Self.verdict(leaf, policy: Self.camera, mirrored: otherClass) == .uncertain)
        #expect(Self.verdict(leaf, policy: Self.camera, mirrored: unsureSameClass) == .uncertain)
        #expect(Self.verdict(leaf, policy: Self.camera, mirrored: Self.confident) == .diagnosis)
        // Without the mirror check, or without a mirrored result, the disagreement is not looked at.
        #expect(Self.verdict(leaf, policy: Self.classify, mirrored: otherClass) == .diagnosis)
        #expect(Self.verdict(leaf, policy: Self.camera) == .diagnosis)
    }

    @Test func frameRepeatingTheSameReadingsHasNoPicture() {
        let picture = PictureStatistics(image: VerdictTestPictures.greenLeaf)
        let next = PictureStatistics(image: VerdictTestPictures.spottedBrownLeaf)
        var history = PictureHistory()
        var verdicts: [Verdict] = []
        for _ in 0..<7 {
            verdicts.append(Self.camera.judge(VerdictReadings(picture: picture, top: Self.confident, mirrored: Self.confident, history: history)).verdict)
            history.record(picture)
        }
        #expect(verdicts == Array(repeating: .diagnosis, count: 4) + Array(repeating: .noPicture, count: 3))
        // A changed picture starts the count again.
        #expect(Self.camera.judge(VerdictReadings(picture: next, top: Self.confident, mirrored: Self.confident, history: history)).verdict == .diagnosis)
        #expect(history.unchangedReadings == 7)
    }

    @Test func withoutChecksEverythingIsADiagnosis() {
        #expect(Self.verdict(VerdictTestPictures.uniform(0), policy: VerdictPolicy(checks: []),
                             top: ScoredClass(index: 0, label: "Apple___Apple_scab", score: 0.1)) == .diagnosis)
    }

    @Test func verdictsAreWrittenWithHyphens() {
        #expect(Verdict.allCases.map(\.rawValue) == ["diagnosis", "uncertain", "no-leaf", "no-picture"])
    }
}

@Suite struct VerdictChecksParsingTests {
    @Test func readsACommaList() throws {
        #expect(try VerdictChecks(parsing: "picture,vegetation,generalist,score") == .classifyDefault)
        #expect(try VerdictChecks(parsing: "mirror,picture") == [.mirror, .picture])
        #expect(try VerdictChecks(parsing: "all") == .all)
        #expect(try VerdictChecks(parsing: "none") == [])
    }

    @Test func writesWhatItReads() throws {
        for text in ["picture", "picture,score", "vegetation,score,mirror", "generalist", "all", "none"] {
            #expect(try VerdictChecks(parsing: text).description == text)
        }
        #expect(VerdictChecks.classifyDefault.description == "picture,vegetation,generalist,score")
    }

    @Test func refusesUnknownAndEmptyNamesAndMixedAllOrNone() {
        #expect(throws: VerdictChecksError.unknownCheck("leaf")) { try VerdictChecks(parsing: "picture,leaf") }
        #expect(throws: VerdictChecksError.unknownCheck("")) { try VerdictChecks(parsing: "") }
        #expect(throws: VerdictChecksError.unknownCheck("")) { try VerdictChecks(parsing: "picture,,score") }
        #expect(throws: VerdictChecksError.standsAlone("all")) { try VerdictChecks(parsing: "all,mirror") }
        #expect(VerdictChecksError.unknownCheck("leaf").message
                == "unknown check 'leaf': the checks are picture, vegetation, generalist, score, mirror, or all or none")
    }

    @Test func cameraRunsTheMirrorAndClassifyDoesNot() {
        #expect(VerdictChecks.cameraDefault == .all)
        #expect(!VerdictChecks.classifyDefault.contains(.mirror))
    }
}
