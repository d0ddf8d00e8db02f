/// Why an image could not be read or decoded. The file name is added by the caller
/// (see `FileError`), so these say only what is wrong with the bytes.
public enum ImageError: PlantLeafError {
    case empty
    /// Neither a PNG nor a JPEG signature; carries the first bytes seen, in hex.
    case unknownFormat(firstBytes: String)
    case tooLarge(format: ImageFormat, width: Int, height: Int, limit: Int)
    case truncated(format: ImageFormat, detail: String)
    case corrupt(format: ImageFormat, detail: String)
    /// The file ends properly, but image data is missing (a scan cut short, scans never sent).
    case missingData(format: ImageFormat, detail: String)
    /// A valid file of a kind this decoder does not read (12-bit, lossless JPEG).
    case unsupported(format: ImageFormat, detail: String)
    /// Decoding would cost more than `ImageDecoder.Budget` allows; the detail names the limit.
    case overBudget(format: ImageFormat, detail: String)
    case outOfMemory(format: ImageFormat)
    /// The row sink stopped the decode.
    case cancelled

    public var message: String {
        switch self {
        case .empty: return "empty file (0 bytes)"
        case .unknownFormat(let firstBytes): return "not a PNG or JPEG image (starts with \(firstBytes))"
        case .tooLarge(let format, let width, let height, let limit):
            return "\(format) claims \(width)x\(height) pixels, above the \(limit / 1_000_000)-megapixel limit"
        case .truncated(let format, _): return "truncated \(format)"
        case .corrupt(let format, _): return "corrupt \(format)"
        case .missingData(let format, _): return "\(format) image data missing"
        case .unsupported(let format, _): return "\(format) not supported"
        case .overBudget(let format, _): return "\(format) over budget"
        case .outOfMemory(let format): return "out of memory decoding \(format)"
        case .cancelled: return "decoding stopped by its receiver"
        }
    }

    public var details: String? {
        switch self {
        case .truncated(_, let detail), .corrupt(_, let detail), .missingData(_, let detail), .unsupported(_, let detail),
             .overBudget(_, let detail):
            return detail
        case .empty, .unknownFormat, .tooLarge, .outOfMemory, .cancelled: return nil
        }
    }
}

/// The encoded formats PlantLeaf reads, told apart by their first bytes (`detect`).
public enum ImageFormat: String, Sendable, CustomStringConvertible {
    case png = "PNG"
    case jpeg = "JPEG"

    public var description: String { rawValue }

    /// Tells the format from the file's first bytes; the file name plays no part.
    public static func detect(_ bytes: some Collection<UInt8>) -> ImageFormat? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        return nil
    }
}
