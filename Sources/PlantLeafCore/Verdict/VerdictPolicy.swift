/// The verdict checks' thresholds and which checks run, and the decision from their readings.
/// Every default was chosen from scripts/verdicts/measure.py's table (docs/verdicts.md) on the
/// 76 PlantVillage sample leaves, 28 non-leaf photos (scikit-image's sample photos and
/// samples/imagenet) and synthetic empty frames, all as the model sees them: 224 × 224, resized
/// bilinearly.
public struct VerdictPolicy: Sendable, Equatable {
    /// Which checks run.
    public var checks: VerdictChecks
    /// Below this mean luma (0...255) the picture is too dark to hold content. The sample leaves'
    /// means are 67–191; the synthetic low-light noise frames' 14–20. 30 also keeps the green
    /// test's chromaticity out of the noisy levels (`PictureStatistics.isGreenTissue`).
    public var darkestMeanLuminance: Double
    /// Above this mean luma the picture is blown out (overexposed, or a white card in front of
    /// the lens): the brightest sample leaf has 191, the brightest photo 196; 235 leaves only 20
    /// levels below white, where most pixels must be clipped.
    public var brightestMeanLuminance: Double
    /// Below this luma standard deviation the picture is flat (a lens cap in light, fog, an
    /// unfocused wall): the flattest sample leaf has 16.2, the flattest photo 9.7, the synthetic
    /// low-light noise 5.1–7.5. 8 is half the flattest leaf's.
    public var flattestLuminanceSpread: Double
    /// Above this `PictureStatistics.flatShare` the picture is drawn, not photographed: a
    /// driver's test pattern (what a replugged camera may show before its picture comes back),
    /// colour bars, a slide. The sample leaves have at most 0.19 (heavily compressed
    /// backgrounds), the photos at most 0.32 (scikit-image's greyscale cameraman, a flat sky);
    /// drawn pictures more: a chessboard 0.40, the Shepp–Logan phantom 0.88, vivid's test
    /// pattern 0.89, the synthetic colour bars 0.96. Single leaves on plain paper, boards and
    /// cloth reach 0.63: a camera's compression flattens a smooth sheet. 0.7 sits between them
    /// and the drawings (docs/verdicts.md).
    public var largestFlatShare: Double
    /// Below this share of green-tissue pixels there is no plant in view. The sample leaves have
    /// 0.19–0.99 (the lowest are small leaves on much background, not brown ones); all non-leaf
    /// photos but three (a hot dog with salad, a colour chart, a green logo) have at most 0.04.
    /// 0.10 sits in that gap, about half the smallest leaf's share.
    public var minimumGreenShare: Double
    /// Below this top-1 score the model is not confident. The 75 sample leaves it gets right
    /// score 0.727 or more, the one it gets wrong 0.438; the three non-leaf photos passing the
    /// green check score 0.340, 0.543 and 0.699. 0.6 catches the first two and keeps a margin
    /// of 0.127 to the right leaves; 0.7 would catch the hot dog too, 0.027 below two right leaves.
    public var minimumScore: Double
    /// From this many camera readings running with identical statistics on, the picture is a
    /// stuck or still one (a frozen driver, a test pattern, a stalled stream), not the scene.
    /// A live sensor's noise changes every frame's sums, so no two readings of a real scene are
    /// identical; five rather than two lets a camera that repeats a frame now and then (a
    /// driver handing the same buffer twice under load) keep its reading.
    public var unchangedReadings: Int
    /// Below this leaf-likeness the generalist sees something far from every leaf photo:
    /// `no-leaf`. Chosen on the tuning half (docs/verdicts.md): half the everyday photos are
    /// under 0.035, the tuning lab leaves 0.33 and up, field photos of plants 0.098 and up.
    public var unlikeLeavesBelow: Double
    /// From the no-leaf cut up to this leaf-likeness the picture is `uncertain`: between leaf
    /// photos and other things, so an unusual real leaf is never told it is not a leaf. From it
    /// on, the picture is clearly leaf-like, and neither a flat background nor too little green
    /// refuses it. On the tuning half every cut from 0.20 to 0.30 keeps 37 lab leaves right and
    /// lets 2 of 77 everyday photos through; 0.24 is the middle, and refuses fewer brown and
    /// powdery leaves on paper than the top of that range (docs/verdicts.md).
    public var clearlyLeafFrom: Double
    /// From this share of green along every edge (the least green side's), the picture is a
    /// field scene, not one leaf: `uncertain`. Of the sample leaves only one, a corn leaf
    /// photographed edge to edge, reaches it (1.0); the next is 0.76. Field scenes and
    /// meadows in the tuning half: 0.95 to 1.0.
    public var fieldSceneEdgeShare: Double
    /// Above this `NeighbourContrast` ratio the picture is noise: `no-picture`. Photos reach 0.42,
    /// random pictures 0.95 and more.
    public var noisiestNeighbourContrast: Double
    /// Below this shorter side, in source pixels, a picture holds too little to read: `uncertain`.
    /// A quarter of the model's 224-pixel input.
    public var smallestReadSide: Int
    /// Below this share of the source picture read (the centred square of a long picture), a
    /// picture with no leaf or no content in that square is `uncertain`: the leaf may be outside it.
    public var smallestReadShare: Double
    /// Below this estimated JPEG quality (`DecodedFile.jpegQuality`), a picture that reads as
    /// flat, drawn or without a leaf is `uncertain`: the compression flattened it.
    public var lowestReadableJPEGQuality: Int
    /// Above this `PictureStatistics.flatShare`, a JPEG below the readable quality is too
    /// compressed whatever the other checks say: its 8 × 8 blocks are flat tiles (at quality 5,
    /// 67 of the 76 sample leaves are above it, from quality 25 none). The drawn cut is higher,
    /// for leaves on flat paper; this one is the drawn cut the samples were measured against.
    public var blockyFlatShare: Double

    /// A policy running `checks` with the measured thresholds unless others are given.
    public init(checks: VerdictChecks, darkestMeanLuminance: Double = 30, brightestMeanLuminance: Double = 235,
                flattestLuminanceSpread: Double = 8, largestFlatShare: Double = 0.7, minimumGreenShare: Double = 0.10, minimumScore: Double = 0.6,
                unchangedReadings: Int = 5, unlikeLeavesBelow: Double = 0.02, clearlyLeafFrom: Double = 0.24,
                fieldSceneEdgeShare: Double = 0.9, noisiestNeighbourContrast: Double = 0.7, smallestReadSide: Int = 56,
                smallestReadShare: Double = 0.5, lowestReadableJPEGQuality: Int = 30, blockyFlatShare: Double = 0.5) {
        self.checks = checks
        self.darkestMeanLuminance = darkestMeanLuminance
        self.brightestMeanLuminance = brightestMeanLuminance
        self.flattestLuminanceSpread = flattestLuminanceSpread
        self.largestFlatShare = largestFlatShare
        self.minimumGreenShare = minimumGreenShare
        self.minimumScore = minimumScore
        self.unchangedReadings = unchangedReadings
        self.unlikeLeavesBelow = unlikeLeavesBelow
        self.clearlyLeafFrom = clearlyLeafFrom
        self.fieldSceneEdgeShare = fieldSceneEdgeShare
        self.noisiestNeighbourContrast = noisiestNeighbourContrast
        self.smallestReadSide = smallestReadSide
        self.smallestReadShare = smallestReadShare
        self.lowestReadableJPEGQuality = lowestReadableJPEGQuality
        self.blockyFlatShare = blockyFlatShare
    }

    /// The verdict on one result and the reading that decided it. The checks go from the
    /// cheapest and most basic up, and the first that fails decides: a picture without content
    /// says nothing about plants, and a picture without plants makes the model's confidence
    /// meaningless. A long picture of which only the centred square was read is `uncertain`
    /// rather than `no-picture` or `no-leaf`: the leaf may be outside the square. So is a JPEG
    /// so compressed that its blocks read as flat, drawn, blocky or without green: the
    /// compression is what is wrong, and the leaf may be there.
    public func judge(_ readings: VerdictReadings) -> Judgement {
        let judgement = firstFailure(readings)
        if let quality = readings.jpegQuality, quality < lowestReadableJPEGQuality, judgement.reason == .flat || judgement.reason == .drawn
            || judgement.verdict == .noLeaf || (checks.contains(.picture) && readings.picture.flatShare > blockyFlatShare) {
            return Judgement(verdict: .uncertain, reason: .tooCompressed)
        }
        if readings.readShare < smallestReadShare, judgement.verdict == .noPicture || judgement.verdict == .noLeaf {
            return Judgement(verdict: .uncertain, reason: .offCentre)
        }
        return judgement
    }

    private func firstFailure(_ readings: VerdictReadings) -> Judgement {
        let picture = readings.picture
        // What the generalist finds clearly leaf-like is not refused for a reading that a leaf
        // can give too: a flat or drawn-looking picture (a leaf on a plain sheet of paper, its
        // background smoothed flat by the camera's compression), or too little green (a brown,
        // yellow, black or white-powdered leaf). Dark and blown-out pictures hold nothing either way.
        let clearlyLeafLike = checks.contains(.generalist) && (readings.leafLikeness ?? 0) >= clearlyLeafFrom
        if checks.contains(.picture) {
            if let side = readings.readSide, side < smallestReadSide { return Judgement(verdict: .uncertain, reason: .tooSmall) }
            let reason: VerdictReason? = if picture.luminanceMean < darkestMeanLuminance { .dark }
                else if picture.luminanceMean > brightestMeanLuminance { .blownOut }
                else if picture.luminanceSpread < flattestLuminanceSpread, !clearlyLeafLike { .flat }
                else if picture.flatShare > largestFlatShare, !clearlyLeafLike { .drawn }
                else if (readings.history?.readingsRunning(with: picture) ?? 1) >= unchangedReadings { .repeatedFrame }
                else if let contrast = readings.neighbourContrast, contrast > noisiestNeighbourContrast { .noise }
                else { nil }
            if let reason { return Judgement(verdict: .noPicture, reason: reason) }
        }
        if checks.contains(.vegetation), !clearlyLeafLike, picture.greenShare < minimumGreenShare,
           (readings.balancedGreenShare ?? picture.greenShare) < minimumGreenShare {
            return Judgement(verdict: .noLeaf, reason: .noGreen)
        }
        if checks.contains(.generalist), let likeness = readings.leafLikeness {
            if likeness < unlikeLeavesBelow { return Judgement(verdict: .noLeaf, reason: .unlikeLeaves) }
            if likeness < clearlyLeafFrom { return Judgement(verdict: .uncertain, reason: .notClearlyLeaf) }
        }
        if checks.contains(.vegetation), let edges = readings.edges, edges.leastGreenSide >= fieldSceneEdgeShare {
            return Judgement(verdict: .uncertain, reason: .fieldScene)
        }
        if checks.contains(.score) && readings.top.score < minimumScore { return Judgement(verdict: .uncertain, reason: .lowScore) }
        if checks.contains(.mirror), let mirrored = readings.mirrored, mirrored.index != readings.top.index || mirrored.score < minimumScore {
            return Judgement(verdict: .uncertain, reason: .unstable)
        }
        return Judgement(verdict: .diagnosis, reason: nil)
    }
}
