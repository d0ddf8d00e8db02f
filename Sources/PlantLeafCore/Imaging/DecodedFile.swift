/// What a decode learned of the file besides its pixels.
public struct DecodedFile: Sendable, Equatable {
    public var format: ImageFormat
    /// For a JPEG, the IJG quality (1 to 100) its luminance quantisation was scaled for, or the
    /// nearest one to a camera's or an editor's own tables; nil for a PNG, or a JPEG without one.
    /// Below about 20 the blocks lose the detail the verdict checks and the model read.
    public var jpegQuality: Int?

    public init(format: ImageFormat, jpegQuality: Int? = nil) {
        self.format = format
        self.jpegQuality = jpegQuality
    }
}
