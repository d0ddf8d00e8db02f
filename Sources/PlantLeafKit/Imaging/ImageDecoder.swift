import CJPEG
import CPNG

/// Decodes PNG (libpng) and JPEG (libjpeg-turbo) bytes to RGB, applying the EXIF orientation.
public struct ImageDecoder: Sendable {
    /// Pixels a file may declare before decoding is refused (decompression bombs): far above any
    /// camera, far below what would exhaust memory.
    public static let defaultPixelLimit = 120_000_000

    public var pixelLimit: Int
    /// JPEGs are decoded at the smallest DCT scale of 1/8, 1/4, 1/2 and 1/1 that still covers
    /// this size in both directions; nil decodes at full size.
    public var minimumSize: (width: Int, height: Int)?
    /// Refuse JPEGs with any damage libjpeg could paper over (camera frames: a damaged frame is
    /// skipped, the next one is a few milliseconds away); otherwise only truncation is refused.
    public var strict: Bool

    public init(pixelLimit: Int = ImageDecoder.defaultPixelLimit, minimumSize: (width: Int, height: Int)? = nil,
                strict: Bool = false) {
        self.pixelLimit = pixelLimit
        self.minimumSize = minimumSize
        self.strict = strict
    }

    public func decode(_ bytes: [UInt8]) throws(ImageError) -> RGBImage {
        guard !bytes.isEmpty else { throw .empty }
        switch ImageFormat.detect(bytes) {
        case .png: return try decodePNG(bytes)
        case .jpeg: return try decodeJPEG(bytes)
        case nil:
            throw .unknownFormat(firstBytes: bytes.prefix(8).map { hexByte($0) }.joined(separator: " "))
        }
    }

    func decodePNG(_ bytes: [UInt8]) throws(ImageError) -> RGBImage {
        var decoded = PLPNGImage()
        let status = pl_png_decode_rgb(bytes, bytes.count, UInt64(pixelLimit), &decoded)
        defer { pl_png_image_free(&decoded) }
        let detail = stringFromCField(decoded.message)
        switch Int32(status) {
        case Int32(PL_PNG_OK):
            let count = Int(decoded.width) * Int(decoded.height) * 3
            let pixels = Array(UnsafeBufferPointer(start: decoded.pixels, count: count))
            return RGBImage(width: Int(decoded.width), height: Int(decoded.height), pixels: pixels)
        case Int32(PL_PNG_TOO_LARGE):
            throw .tooLarge(format: .png, width: Int(decoded.width), height: Int(decoded.height), limit: pixelLimit)
        case Int32(PL_PNG_NO_MEMORY):
            throw .outOfMemory(format: .png)
        default:
            // libpng's read callback says "file is truncated" when the data runs out.
            if detail.contains("truncated") { throw .truncated(format: .png, detail: detail) }
            throw .corrupt(format: .png, detail: detail)
        }
    }

    func decodeJPEG(_ bytes: [UInt8]) throws(ImageError) -> RGBImage {
        var decoded = PLJPEGImage()
        let minimum = minimumSize ?? (0, 0)
        // The EXIF rotation may swap the axes after decoding, so cover the larger side both ways.
        let side = UInt32(max(minimum.width, minimum.height))
        let status = pl_jpeg_decode_rgb(bytes, bytes.count, side, side, UInt64(pixelLimit), strict ? 1 : 0, &decoded)
        defer { pl_jpeg_image_free(&decoded) }
        let detail = stringFromCField(decoded.message)
        switch Int32(status) {
        case Int32(PL_JPEG_OK):
            let count = Int(decoded.width) * Int(decoded.height) * 3
            let image = RGBImage(width: Int(decoded.width), height: Int(decoded.height),
                                 pixels: Array(UnsafeBufferPointer(start: decoded.pixels, count: count)))
            let exif = decoded.exif.map { Array(UnsafeBufferPointer(start: $0, count: decoded.exif_size)) } ?? []
            return EXIFOrientation.read(fromAPP1: exif).apply(to: image)
        case Int32(PL_JPEG_TOO_LARGE):
            throw .tooLarge(format: .jpeg, width: Int(decoded.source_width), height: Int(decoded.source_height), limit: pixelLimit)
        case Int32(PL_JPEG_NO_MEMORY):
            throw .outOfMemory(format: .jpeg)
        case Int32(PL_JPEG_TRUNCATED):
            throw .truncated(format: .jpeg, detail: detail)
        default:
            throw .corrupt(format: .jpeg, detail: detail)
        }
    }
}

private func hexByte(_ byte: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
}
