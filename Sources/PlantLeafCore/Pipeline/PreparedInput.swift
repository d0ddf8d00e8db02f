/// What one image or frame put into the model's input tensor.
public struct PreparedInput: Sendable {
    /// The image as the decoder (or frame) delivered it, before the resize.
    public var sourceWidth: Int
    public var sourceHeight: Int
    /// The verdict's readings of the model-size pixels written.
    public var picture: PictureStatistics
    public var timings: StageTimings
}
