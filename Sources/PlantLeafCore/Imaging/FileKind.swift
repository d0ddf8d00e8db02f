/// What a file that is no JPEG or PNG is, told from its first bytes, so that a refusal names it
/// in words ("this file is a PDF document") rather than showing its bytes. The raw values are
/// the catalogue's keys (`error.image.kind.RAW`).
public enum FileKind: String, CaseIterable, Sendable {
    case text, pdf, gif, webp, heic, bmp, tiff, zip, other

    /// The bytes a file's kind is told from: the most any signature here needs.
    public static let signatureBytes = 16

    /// The kind of a file starting with `bytes`.
    public init(firstBytes bytes: [UInt8]) {
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            let signature = Array(text.utf8)
            return bytes.count >= offset + signature.count && Array(bytes[offset..<offset + signature.count]) == signature
        }
        if starts("%PDF") { self = .pdf }
        else if starts("GIF8") { self = .gif }
        else if starts("RIFF") && starts("WEBP", at: 8) { self = .webp }
        else if starts("ftyp", at: 4) && ["heic", "heix", "heif", "mif1", "msf1", "avif"].contains(where: { starts($0, at: 8) }) { self = .heic }
        else if starts("BM") { self = .bmp }
        else if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { self = .tiff }
        else if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) { self = .zip }
        // Text: printable ASCII and white space, or a UTF-8 byte order mark.
        else if bytes.starts(with: [0xEF, 0xBB, 0xBF]) || (!bytes.isEmpty && bytes.allSatisfy { (0x20...0x7E).contains($0) || [0x09, 0x0A, 0x0D].contains($0) }) { self = .text }
        else { self = .other }
    }
}
