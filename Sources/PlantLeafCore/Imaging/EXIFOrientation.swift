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
    /// The image turned upright. It is placed a stored row at a time by `uprightRow`, the
    /// indexing the resizer uses to put its output rows straight where they belong.
    public func apply(to image: RGBImage) -> RGBImage {
        if self == .upright { return image }
        var output = [UInt8](repeating: 0, count: image.pixels.count)
        image.pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBytes { target in
                for y in 0..<image.height {
                    place(UnsafeRawPointer(source.baseAddress! + y * image.width * 3), storedRow: y, width: image.width,
                          height: image.height, pixelBytes: 3, into: target.baseAddress!)
                }
            }
        }
        let (width, height) = swapsAxes ? (image.height, image.width) : (image.width, image.height)
        return RGBImage(width: width, height: height, pixels: output)
    }

    /// Where stored row `y` of a `width` x `height` stored image lies in the upright one: the
    /// upright pixel index of its first pixel, and the step from one pixel to the next (a row's
    /// pixels run along an upright row, or down an upright column when the axes swap).
    func uprightRow(_ y: Int, width: Int, height: Int) -> (start: Int, step: Int) {
        switch self {
        case .upright: return (y * width, 1)
        case .mirrored: return (y * width + width - 1, -1)
        case .rotated180: return ((height - 1 - y) * width + width - 1, -1)
        case .flippedVertically: return ((height - 1 - y) * width, 1)
        // The upright image is `height` pixels wide.
        case .transposed: return (y, height)
        case .rotated90Clockwise: return (height - 1 - y, height)
        case .transverse: return ((width - 1) * height + height - 1 - y, -height)
        case .rotated90CounterClockwise: return ((width - 1) * height + y, -height)
        }
    }

    /// Copies stored row `y` (`width` pixels of `pixelBytes` bytes each) to its upright place in
    /// `target`, which holds the whole upright image.
    func place(_ row: UnsafeRawPointer, storedRow y: Int, width: Int, height: Int, pixelBytes: Int,
               into target: UnsafeMutableRawPointer) {
        let (start, step) = uprightRow(y, width: width, height: height)
        if step == 1 { return (target + start * pixelBytes).copyMemory(from: row, byteCount: width * pixelBytes) }
        for x in 0..<width {
            (target + (start + x * step) * pixelBytes).copyMemory(from: row + x * pixelBytes, byteCount: pixelBytes)
        }
    }
}
