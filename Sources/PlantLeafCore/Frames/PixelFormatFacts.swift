/// One row of the pixel-format table (`FramePixelFormat.table`): what PlantLeaf knows of a format.
public struct PixelFormatFacts: Sendable {
    /// How a frame of the format becomes the RGB rows the resize reads.
    public enum Conversion: Sendable {
        /// Y0 Cb Y1 Cr for each pair of pixels (YUYV).
        case packedYCbCr422
        /// A plane of Y, then one of interleaved Cb Cr at half the width and height (NV12).
        case semiPlanarYCbCr420
        /// Already RGB rows: resized as they are.
        case rgb
        /// A JPEG per frame: decoded, then resized as files are.
        case jpeg
    }

    /// How a frame's bytes are laid out in planes.
    public enum FramePlanes: Sendable {
        case single
        /// NV12: the luma plane, then a chroma plane of half as many rows of the same line length.
        case lumaThenHalfHeightChroma
    }

    public let format: FramePixelFormat
    /// V4L2's code for it, four ASCII characters packed little-endian.
    public let fourCC: UInt32
    /// The name messages and `camera --list` use.
    public let displayName: String
    public let conversion: Conversion
    /// Bytes a pixel takes in the first plane's rows; 0 for compressed formats, whose frames are as
    /// long as they are.
    public let bytesPerPixel: Int
    public let framePlanes: FramePlanes
    /// Pixels that share chroma along a row: a crop starts and ends on a multiple of it, so no
    /// pixel loses its colour.
    public let chromaAlignment: Int

    init(format: FramePixelFormat, fourCC: String, displayName: String, conversion: Conversion, bytesPerPixel: Int,
         framePlanes: FramePlanes, chromaAlignment: Int) {
        self.format = format
        self.fourCC = FourCC.code(fourCC)
        self.displayName = displayName
        self.conversion = conversion
        self.bytesPerPixel = bytesPerPixel
        self.framePlanes = framePlanes
        self.chromaAlignment = chromaAlignment
    }

    /// Whether frames are compressed (their length is not set by their size).
    public var compressed: Bool { bytesPerPixel == 0 }
}
