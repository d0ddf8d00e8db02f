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

    public static func bigEndian32(_ value: UInt32) -> [UInt8] {
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

    /// Where the JPEG's `marker` (FF marker) first appears.
    static func offset(ofMarker marker: UInt8, in jpeg: [UInt8]) -> Int {
        guard let offset = (0..<(jpeg.count - 1)).first(where: { jpeg[$0] == 0xFF && jpeg[$0 + 1] == marker }) else {
            preconditionFailure("no FF \(String(marker, radix: 16)) marker")
        }
        return offset
    }

    /// A JPEG whose frame header (SOF0 for baseline, SOF2 for progressive) claims width x height.
    public static func jpegClaiming(width: UInt16, height: UInt16, from jpeg: [UInt8], frameMarker: UInt8 = 0xC0) -> [UInt8] {
        var bytes = jpeg
        let marker = offset(ofMarker: frameMarker, in: bytes)
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

    /// The JPEG with its baseline frame header's sample precision set to `bits`.
    public static func jpegWithPrecision(_ bits: UInt8, from jpeg: [UInt8]) -> [UInt8] {
        var bytes = jpeg
        bytes[offset(ofMarker: 0xC0, in: bytes) + 4] = bits
        return bytes
    }

    /// The baseline JPEG relabelled as another coding process (SOF3 is lossless).
    public static func jpegRelabelled(asFrameMarker frameMarker: UInt8, from jpeg: [UInt8]) -> [UInt8] {
        var bytes = jpeg
        bytes[offset(ofMarker: 0xC0, in: bytes) + 1] = frameMarker
        return bytes
    }

    /// Each scan of the JPEG: from its SOS marker to the next marker that is not a restart
    /// marker or a stuffed FF 00 in the entropy-coded data.
    public static func scans(in jpeg: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
            let marker = jpeg[offset + 1]
            if marker == 0xD9 { break }
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            guard marker == 0xDA else { offset += 2 + length; continue }
            var end = offset + 2 + length
            while end + 1 < jpeg.count, !(jpeg[end] == 0xFF && jpeg[end + 1] != 0 && !(0xD0...0xD7).contains(jpeg[end + 1])) { end += 1 }
            ranges.append(offset..<end)
            offset = end
        }
        return ranges
    }

    /// The JPEG cut after `byteCount` bytes, with an end-of-image marker put back: a download
    /// cut short that still looks finished.
    public static func jpegCut(_ jpeg: [UInt8], keeping byteCount: Int) -> [UInt8] {
        Array(jpeg.prefix(byteCount)) + [0xFF, 0xD9]
    }

    /// The JPEG up to its first scan's header, then the end marker: no entropy-coded data at all.
    public static func jpegWithoutScanData(_ jpeg: [UInt8]) -> [UInt8] {
        let scan = scans(in: jpeg)[0]
        let headerLength = Int(jpeg[scan.lowerBound + 2]) << 8 | Int(jpeg[scan.lowerBound + 3])
        return jpegCut(jpeg, keeping: scan.lowerBound + 2 + headerLength)
    }

    /// A progressive JPEG with only its first `count` scans, ending properly.
    public static func jpegKeepingScans(_ count: Int, of jpeg: [UInt8]) -> [UInt8] {
        jpegCut(jpeg, keeping: scans(in: jpeg)[count - 1].upperBound)
    }

    /// A progressive JPEG with its shortest scan repeated `times` more times before the end
    /// marker: libjpeg decodes every one (warning that the progression is odd).
    public static func jpegRepeatingScan(_ jpeg: [UInt8], times: Int) -> [UInt8] {
        let all = scans(in: jpeg)
        let shortest = all.min { $0.count < $1.count }!
        let scan = Array(jpeg[shortest])
        var bytes = Array(jpeg[..<all.last!.upperBound])
        bytes.reserveCapacity(bytes.count + scan.count * times + 2)
        for _ in 0..<times { bytes += scan }
        return bytes + [0xFF, 0xD9]
    }

    /// A mid-gray baseline JPEG of any size, made in a few megabytes without encoding: the
    /// headers of a libjpeg-encoded 16x16 gray image (4:2:0, standard Huffman tables), then its
    /// one MCU repeated. Mid-gray makes every DC difference and every AC coefficient zero, so
    /// each of the six blocks is "DC category 0, end of block": 6 bits a luma block, 4 a chroma
    /// block, 32 bits an MCU.
    public static func grayJPEG(width: UInt16, height: UInt16) -> [UInt8] {
        let gray = [UInt8](repeating: 128, count: 16 * 16 * 3)
        let small = jpegClaiming(width: width, height: height, from: TestImages.jpeg(gray, width: 16, height: 16, quality: 90))
        let scan = scans(in: small)[0]
        let headerLength = Int(small[scan.lowerBound + 2]) << 8 | Int(small[scan.lowerBound + 3])
        var bytes = Array(small[..<(scan.lowerBound + 2 + headerLength)])
        let mcus = ((Int(width) + 15) / 16) * ((Int(height) + 15) / 16)
        let mcu: [UInt8] = [0x28, 0xA2, 0x8A, 0x00]  // 001010 x 4 (luma), 0000 x 2 (chroma)
        bytes.reserveCapacity(bytes.count + mcus * 4 + 2)
        for _ in 0..<mcus { bytes += mcu }
        return bytes + [0xFF, 0xD9]
    }

    /// One PNG chunk: length (or `declaredLength`, to lie), type, data, CRC.
    public static func pngChunk(_ type: String, _ data: [UInt8], declaredLength: UInt32? = nil) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian32(declaredLength ?? UInt32(data.count)) + typeAndData + bigEndian32(crc32(typeAndData))
    }

    /// The PNG signature and an IHDR for an 8-bit RGB image.
    public static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        return signature + pngChunk("IHDR", bigEndian32(width) + bigEndian32(height) + [8, 2, 0, 0, 0])
    }

    /// A zlib stream that inflates to at least `count` zero bytes (a multiple of 258, plus 1),
    /// at about 2000 to 1, written by hand so a test can make gigabytes of image data in
    /// megabytes: one fixed-Huffman deflate block of a zero literal and then copies of 258 bytes
    /// at distance 1.
    public static func zlibZeros(atLeast count: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(0b011, count: 3)          // last block, fixed Huffman
        bits.writeCode(0b0011_0000, count: 8)  // literal 0
        let copy = { (bits: inout BitWriter) in
            bits.writeCode(0b1100_0101, count: 8)  // length code 285: 258 bytes
            bits.writeCode(0, count: 5)            // distance code 0: 1 byte back
        }
        copy(&bits)  // 3 + 8 + 13 bits: whole bytes from here
        let prefix = bits.bytes
        var group = BitWriter()
        for _ in 0..<8 { copy(&group) }      // 8 copies are 104 bits, 13 whole bytes
        let groups = max(0, (count - 1 - 258 + 8 * 258 - 1) / (8 * 258))
        var end = BitWriter()
        end.writeCode(0, count: 7)           // end of block
        let produced = 1 + 258 * (1 + 8 * groups)
        // Adler-32 of zeros: a stays 1, b adds 1 per byte.
        let adler = UInt32(produced % 65521) << 16 | 1
        var stream: [UInt8] = [0x78, 0x01] + prefix
        stream.reserveCapacity(stream.count + groups * 13 + 8)
        for _ in 0..<groups { stream += group.bytes }
        return stream + end.bytes + bigEndian32(adler)
    }

    /// A black width x height RGB PNG whose image data inflates to `extraBytes` more than the
    /// image needs (the rest of the zero stream), in IDAT chunks of at most `chunkBytes`.
    public static func blackPNG(width: UInt32, height: UInt32, extraBytes: Int = 0, chunkBytes: Int = 1 << 20) -> [UInt8] {
        let imageBytes = Int(height) * (1 + Int(width) * 3)  // a filter byte (0, none) a row
        let stream = zlibZeros(atLeast: imageBytes + extraBytes)
        var png = pngHeader(width: width, height: height)
        for start in stride(from: 0, to: stream.count, by: chunkBytes) {
            png += pngChunk("IDAT", Array(stream[start..<min(start + chunkBytes, stream.count)]))
        }
        return png + pngChunk("IEND", [])
    }
}

/// Deflate's bit order: fields least significant bit first, Huffman codes most significant first.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var bitCount = 0

    mutating func write(_ value: UInt32, count: Int) {
        for bit in 0..<count {
            if bitCount % 8 == 0 { bytes.append(0) }
            bytes[bytes.count - 1] |= UInt8((value >> UInt32(bit)) & 1) << UInt8(bitCount % 8)
            bitCount += 1
        }
    }

    mutating func writeCode(_ code: UInt32, count: Int) {
        var reversed: UInt32 = 0
        for bit in 0..<count { reversed |= ((code >> UInt32(bit)) & 1) << UInt32(count - 1 - bit) }
        write(reversed, count: count)
    }
}
