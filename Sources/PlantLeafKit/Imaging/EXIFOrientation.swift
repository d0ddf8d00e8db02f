/// The EXIF orientation tag (0x0112): how the stored pixels must be turned to look upright.
/// Phones store photos as the sensor saw them and record the turn here.
public enum EXIFOrientation: Int, Sendable, CaseIterable {
    case upright = 1
    case mirrored = 2
    case rotated180 = 3
    case flippedVertically = 4
    case transposed = 5
    case rotated90Clockwise = 6
    case transverse = 7
    case rotated90CounterClockwise = 8

    /// Reads the orientation from a JPEG APP1 payload ("Exif\0\0" + TIFF). Anything missing,
    /// malformed or out of range means upright: a bad tag must not cost the photo.
    public static func read(fromAPP1 payload: [UInt8]) -> EXIFOrientation {
        let tiffStart = 6
        guard payload.count >= tiffStart + 8, payload.starts(with: Array("Exif\0\0".utf8)) else { return .upright }
        let littleEndian: Bool
        switch (payload[tiffStart], payload[tiffStart + 1]) {
        case (0x49, 0x49): littleEndian = true   // "II"
        case (0x4D, 0x4D): littleEndian = false  // "MM"
        default: return .upright
        }
        func integer(at offset: Int, bytes: Int) -> Int? {
            let start = tiffStart + offset
            guard offset >= 0, start + bytes <= payload.count else { return nil }
            var value = 0
            for index in 0..<bytes {
                let byte = Int(payload[start + (littleEndian ? bytes - 1 - index : index)])
                value = value << 8 | byte
            }
            return value
        }
        guard integer(at: 2, bytes: 2) == 42, let ifd = integer(at: 4, bytes: 4),
              let entryCount = integer(at: ifd, bytes: 2) else { return .upright }
        for entry in 0..<entryCount {
            let offset = ifd + 2 + entry * 12
            guard let tag = integer(at: offset, bytes: 2) else { return .upright }
            guard tag == 0x0112 else { continue }
            // Type 3 is SHORT; the value sits in the first two bytes of the value field.
            guard integer(at: offset + 2, bytes: 2) == 3, let value = integer(at: offset + 8, bytes: 2) else { return .upright }
            return EXIFOrientation(rawValue: value) ?? .upright
        }
        return .upright
    }

    /// Whether the upright image is the stored one turned a quarter (width and height swap).
    public var swapsAxes: Bool { rawValue >= 5 }

    /// Returns the image as it should be seen.
    public func apply(to image: RGBImage) -> RGBImage {
        if self == .upright { return image }
        let (width, height) = (image.width, image.height)
        let (outputWidth, outputHeight) = swapsAxes ? (height, width) : (width, height)
        var output = [UInt8](repeating: 0, count: image.pixels.count)
        image.pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                for y in 0..<outputHeight {
                    for x in 0..<outputWidth {
                        let (sourceX, sourceY) = sourcePosition(x: x, y: y, width: width, height: height)
                        let from = (sourceY * width + sourceX) * 3
                        let to = (y * outputWidth + x) * 3
                        target[to] = source[from]
                        target[to + 1] = source[from + 1]
                        target[to + 2] = source[from + 2]
                    }
                }
            }
        }
        return RGBImage(width: outputWidth, height: outputHeight, pixels: output)
    }

    /// Where upright pixel (x, y) comes from in the stored width x height image.
    func sourcePosition(x: Int, y: Int, width: Int, height: Int) -> (Int, Int) {
        switch self {
        case .upright: return (x, y)
        case .mirrored: return (width - 1 - x, y)
        case .rotated180: return (width - 1 - x, height - 1 - y)
        case .flippedVertically: return (x, height - 1 - y)
        case .transposed: return (y, x)
        case .rotated90Clockwise: return (y, height - 1 - x)
        case .transverse: return (width - 1 - y, height - 1 - x)
        case .rotated90CounterClockwise: return (width - 1 - y, x)
        }
    }
}
