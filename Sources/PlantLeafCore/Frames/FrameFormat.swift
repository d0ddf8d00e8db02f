/// The pixel formats the camera path converts to model input. Every fact about one (its V4L2
/// code, its layout, how it is converted, how much negotiation prefers it) is its row of `table`,
/// which the camera, the frame converter, the help text and `camera --list` read.
public enum FramePixelFormat: String, Sendable, CaseIterable {
    case yuyv, mjpeg, nv12, rgb24

    /// One row per format, in the order negotiation prefers them when two give the same size and
    /// rate: uncompressed first (no decoding, no compression artefacts), YUYV being the cheapest
    /// to convert.
    public static let table: [PixelFormatFacts] = [
        PixelFormatFacts(format: .yuyv, fourCC: "YUYV", displayName: "YUYV", conversion: .packedYCbCr422, bytesPerPixel: 2,
                         framePlanes: .single, chromaAlignment: 2),
        PixelFormatFacts(format: .nv12, fourCC: "NV12", displayName: "NV12", conversion: .semiPlanarYCbCr420, bytesPerPixel: 1,
                         framePlanes: .lumaThenHalfHeightChroma, chromaAlignment: 2),
        PixelFormatFacts(format: .rgb24, fourCC: "RGB3", displayName: "RGB24", conversion: .rgb, bytesPerPixel: 3,
                         framePlanes: .single, chromaAlignment: 1),
        PixelFormatFacts(format: .mjpeg, fourCC: "MJPG", displayName: "MJPEG", conversion: .jpeg, bytesPerPixel: 0,
                         framePlanes: .single, chromaAlignment: 1),
    ]

    /// This format's row of `table`.
    public var facts: PixelFormatFacts { FramePixelFormat.table.first { $0.format == self }! }

    public var fourCC: UInt32 { facts.fourCC }
    public var displayName: String { facts.displayName }

    /// The format a V4L2 code names; nil for formats PlantLeaf cannot read.
    public init?(fourCC: UInt32) {
        guard let row = FramePixelFormat.table.first(where: { $0.fourCC == fourCC }) else { return nil }
        self = row.format
    }

    /// Bytes a frame needs at least (MJPEG: any size).
    func minimumBytes(height: Int, bytesPerLine: Int) -> Int {
        guard facts.bytesPerPixel > 0 else { return 0 }
        switch facts.framePlanes {
        case .single: return bytesPerLine * height
        case .lumaThenHalfHeightChroma: return bytesPerLine * height * 3 / 2
        }
    }
}

/// V4L2 names formats by four ASCII characters packed little-endian into 32 bits.
public enum FourCC {
    /// The code of a four-character name ("YUYV").
    public static func code(_ text: String) -> UInt32 {
        text.utf8.prefix(4).enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    /// The four characters, trailing spaces dropped; the top bit V4L2 sets on big-endian
    /// variants is shown as "-BE", as v4l2-ctl does.
    public static func text(_ code: UInt32) -> String {
        let bigEndianFlag: UInt32 = 1 << 31
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: (code & ~bigEndianFlag) >> (8 * $0)) }
        let text = String(decoding: bytes.map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
        return text.trimmingSuffix(" ") + (code & bigEndianFlag != 0 ? "-BE" : "")
    }
}

extension String {
    fileprivate func trimmingSuffix(_ character: Character) -> String {
        var text = self
        while text.last == character { text.removeLast() }
        return text
    }
}

/// A frame's width and height in pixels, written WxH.
public struct FrameSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    /// A size of `width` x `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses "640x480".
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else { return nil }
        self.init(width: width, height: height)
    }

    public var description: String { "\(width)x\(height)" }
    package var area: Int { width * height }
}

/// Seconds per frame as V4L2 gives it (1/30 = 30 fps).
public struct FrameInterval: Sendable, Hashable {
    public var numerator: Int
    public var denominator: Int

    /// An interval of numerator/denominator seconds (V4L2's form: 1/30 is 30 fps).
    public init(numerator: Int, denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    public var framesPerSecond: Double { numerator == 0 ? 0 : Double(denominator) / Double(numerator) }
}
