/// Why an image could not be read or decoded. The file name is added by the caller
/// (see `FileError`), so these say only what is wrong with the bytes.
public enum ImageError: WordedError {
    case empty
    /// Neither a PNG nor a JPEG signature; carries the first bytes seen (`FileKind.signatureBytes`
    /// at most), which its words name the kind of.
    case unknownFormat(firstBytes: [UInt8])
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

    public func message(in catalogue: Catalogue) -> String {
        switch self {
        case .empty: return catalogue["error.image.empty"]
        case .unknownFormat(let firstBytes):
            return catalogue.text("error.image.unknown-format", ["kind": catalogue["error.image.kind." + FileKind(firstBytes: firstBytes).rawValue]])
        case .tooLarge(let format, let width, let height, let limit):
            return catalogue.text("error.image.too-large", ["format": format.rawValue, "width": String(width), "height": String(height),
                                                            "megapixels": String(limit / 1_000_000)])
        case .truncated(let format, _): return catalogue.text("error.image.truncated", ["format": format.rawValue])
        case .corrupt(let format, _): return catalogue.text("error.image.corrupt", ["format": format.rawValue])
        case .missingData(let format, _): return catalogue.text("error.image.missing-data", ["format": format.rawValue])
        case .unsupported(let format, _): return catalogue.text("error.image.unsupported", ["format": format.rawValue])
        case .overBudget(let format, _): return catalogue.text("error.image.over-budget", ["format": format.rawValue])
        case .outOfMemory(let format): return catalogue.text("error.image.out-of-memory", ["format": format.rawValue])
        case .cancelled: return catalogue["error.image.cancelled"]
        }
    }

    /// The decoder's own words, in every language.
    public func details(in catalogue: Catalogue) -> String? {
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
