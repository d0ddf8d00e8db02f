import Foundation

/// Damaged and hostile files made from good ones, for the error-path tests.
public enum BadFiles {
    /// CRC-32 as PNG chunks use it (ISO 3309, reflected, polynomial 0xEDB88320).
    public static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func bigEndian32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// A PNG whose IHDR claims width x height, with a correct CRC so only the size is wrong.
    public static func pngClaiming(width: UInt32, height: UInt32, from png: [UInt8]) -> [UInt8] {
        var bytes = png
        // Signature (8), IHDR length (4), "IHDR" (4), then width and height.
        bytes.replaceSubrange(16..<24, with: bigEndian32(width) + bigEndian32(height))
        bytes.replaceSubrange(29..<33, with: bigEndian32(crc32(bytes[12..<29])))
        return bytes
    }

    /// A JPEG whose baseline frame header (SOF0) claims width x height.
    public static func jpegClaiming(width: UInt16, height: UInt16, from jpeg: [UInt8]) -> [UInt8] {
        var bytes = jpeg
        guard let marker = (0..<(bytes.count - 1)).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }) else {
            preconditionFailure("no SOF0 marker: encode a baseline JPEG")
        }
        // FF C0, length (2), precision (1), height (2), width (2).
        bytes.replaceSubrange((marker + 5)..<(marker + 9), with: [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)])
        return bytes
    }

    /// The PNG with the stored CRC of its first IDAT chunk changed: the data is intact, only
    /// the checksum disagrees.
    public static func pngWithBadCRC(_ png: [UInt8]) -> [UInt8] {
        var bytes = png
        let idat = Array("IDAT".utf8)
        guard let type = (4..<(bytes.count - 4)).first(where: { Array(bytes[$0..<($0 + 4)]) == idat }) else {
            preconditionFailure("no IDAT chunk")
        }
        let length = bytes[(type - 4)..<type].reduce(0) { $0 << 8 | Int($1) }
        bytes[type + 4 + length] ^= 0x55
        return bytes
    }
}
