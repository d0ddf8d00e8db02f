/// The format the driver settled on after negotiation.
public struct StreamFormat: Sendable, Equatable {
    public var format: FramePixelFormat
    public var size: FrameSize
    public var bytesPerLine: Int
    public var imageBytes: Int
    /// nil when the driver has no frame-rate control.
    public var framesPerSecond: Double?

    /// A stream's format as the driver set it.
    public init(format: FramePixelFormat, size: FrameSize, bytesPerLine: Int, imageBytes: Int = 0, framesPerSecond: Double? = nil) {
        self.format = format
        self.size = size
        self.bytesPerLine = bytesPerLine
        self.imageBytes = imageBytes
        self.framesPerSecond = framesPerSecond
    }
}
