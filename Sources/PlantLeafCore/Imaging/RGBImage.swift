/// An 8-bit RGB image, rows packed top to bottom, 3 bytes a pixel.
public struct RGBImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var pixels: [UInt8]

    /// An image of `width` x `height` pixels; `pixels` must hold exactly 3 bytes for each.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 3, "RGB buffer must hold width x height x 3 bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The red, green and blue values at (x, y).
    public subscript(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        let offset = (y * width + x) * 3
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2])
    }
}
