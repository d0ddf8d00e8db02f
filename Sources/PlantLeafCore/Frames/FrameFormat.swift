/// The pixel formats the camera path converts to model input.
public enum FramePixelFormat: String, Sendable, CaseIterable {
    case yuyv, mjpeg, nv12, rgb24

    public var fourCC: UInt32 {
        switch self {
        case .yuyv: return FourCC.code("YUYV")
        case .mjpeg: return FourCC.code("MJPG")
        case .nv12: return FourCC.code("NV12")
        case .rgb24: return FourCC.code("RGB3")
        }
    }

    /// The format a V4L2 code names; nil for formats PlantLeaf cannot read.
    public init?(fourCC: UInt32) {
        guard let format = FramePixelFormat.allCases.first(where: { $0.fourCC == fourCC }) else { return nil }
        self = format
    }

    public var displayName: String {
        switch self {
        case .yuyv: return "YUYV"
        case .mjpeg: return "MJPEG"
        case .nv12: return "NV12"
        case .rgb24: return "RGB24"
        }
    }

    /// Bytes a width x height frame needs at least (MJPEG: any size).
    func minimumBytes(width: Int, height: Int, bytesPerLine: Int) -> Int {
        switch self {
        case .yuyv, .rgb24: return bytesPerLine * height
        case .nv12: return bytesPerLine * height * 3 / 2
        case .mjpeg: return 0
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
