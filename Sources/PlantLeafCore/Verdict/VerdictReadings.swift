/// Everything the verdict checks read of one result: the picture's statistics, the model's
/// answer, and the readings only some checks need.
public struct VerdictReadings: Sendable {
    /// The statistics of the pixels the model saw.
    public var picture: PictureStatistics
    /// The model's top class with its score.
    public var top: ScoredClass
    /// The top class for the same pixels mirrored left to right; the mirror check needs it.
    public var mirrored: ScoredClass?
    /// For a camera, its readings before this one: `unchangedReadings` running with identical
    /// statistics mean it delivers the same frame again and again.
    public var history: PictureHistory?
    /// The green share after the colour cast is balanced out (`WhiteBalance`): taken only when
    /// the raw share is below the minimum.
    public var balancedGreenShare: Double?
    /// How like leaf photos the generalist finds the picture (`SecondOpinion`); nil when it did
    /// not run or could not (skipped, which the outputs say).
    public var leafLikeness: Double?
    /// The green along the picture's edges.
    public var edges: SceneEdges?
    /// How much neighbouring pixels differ (`NeighbourContrast`): high for noise.
    public var neighbourContrast: Double?
    /// The shorter side, in source pixels, of the part of the picture the model saw (its crop);
    /// nil for a camera frame, whose size the camera sets.
    public var readSide: Int?
    /// The share of the source picture's area the model saw: below 1 when the centred square of
    /// a long picture was read.
    public var readShare: Double
    /// The source JPEG's estimated quality (`DecodedFile.jpegQuality`); nil for other sources.
    public var jpegQuality: Int?

    public init(picture: PictureStatistics, top: ScoredClass, mirrored: ScoredClass? = nil, history: PictureHistory? = nil,
                balancedGreenShare: Double? = nil, leafLikeness: Double? = nil, edges: SceneEdges? = nil, readSide: Int? = nil,
                readShare: Double = 1, jpegQuality: Int? = nil) {
        self.picture = picture
        self.top = top
        self.mirrored = mirrored
        self.history = history
        self.balancedGreenShare = balancedGreenShare
        self.leafLikeness = leafLikeness
        self.edges = edges
        self.readSide = readSide
        self.readShare = readShare
        self.jpegQuality = jpegQuality
    }
}
