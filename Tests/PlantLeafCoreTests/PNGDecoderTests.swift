import CPNG
import PlantLeafCore
import PlantLeafTestSupport
import Testing

/// A 5x3 image with distinct values everywhere, so any misplaced row, column or channel shows.
private let sourceWidth = 5, sourceHeight = 3
private let sourceRGB: [UInt8] = (0..<(sourceWidth * sourceHeight * 3)).map { UInt8(($0 * 37 + 11) % 256) }

private func decode(_ bytes: [UInt8]) throws -> RGBImage {
    try ImageDecoder().decode(bytes)
}

@Suite struct PNGDecoderTests {
    @Test func rgb8() throws {
        let png = TestImages.png(sourceRGB, width: sourceWidth, height: sourceHeight, colorType: 2, bitDepth: 8)
        #expect(try decode(png) == RGBImage(width: sourceWidth, height: sourceHeight, pixels: sourceRGB))
    }

    @Test(arguments: [false, true]) func rgb16ScalesTo8Bits(interlaced: Bool) throws {
        // 16-bit sample v*257 is exactly 8-bit v scaled up, so scaling down must give v back.
        let rows = sourceRGB.flatMap { [$0, $0] }
        let png = TestImages.png(rows, width: sourceWidth, height: sourceHeight, colorType: 2, bitDepth: 16, interlaced: interlaced)
        #expect(try decode(png).pixels == sourceRGB)
    }

    @Test func rgbaDropsAlpha() throws {
        var rows: [UInt8] = []
        for pixel in 0..<(sourceWidth * sourceHeight) {
            rows += sourceRGB[(pixel * 3)..<(pixel * 3 + 3)] + [UInt8(pixel * 17 % 256)]
        }
        let png = TestImages.png(rows, width: sourceWidth, height: sourceHeight, colorType: 6, bitDepth: 8)
        #expect(try decode(png).pixels == sourceRGB)
    }

    @Test(arguments: [false, true]) func gray8(interlaced: Bool) throws {
        let gray = (0..<(sourceWidth * sourceHeight)).map { UInt8($0 * 16) }
        let png = TestImages.png(gray, width: sourceWidth, height: sourceHeight, colorType: 0, bitDepth: 8, interlaced: interlaced)
        #expect(try decode(png).pixels == gray.flatMap { [$0, $0, $0] })
    }

    @Test func grayAlpha16() throws {
        let gray = (0..<(sourceWidth * sourceHeight)).map { UInt8($0 * 16) }
        let rows = gray.flatMap { value -> [UInt8] in [value, value, 0x80, 0x00] }  // 16-bit gray then 16-bit alpha, big-endian
        let png = TestImages.png(rows, width: sourceWidth, height: sourceHeight, colorType: 4, bitDepth: 16)
        #expect(try decode(png).pixels == gray.flatMap { [$0, $0, $0] })
    }

    @Test(arguments: [1, 2, 4]) func lowBitGrayExpandsToFullRange(bitDepth: Int) throws {
        // One row of 8 pixels cycling through every level; level L of N becomes L*255/(2^bits-1).
        let levels = (1 << bitDepth) - 1
        let values = (0..<8).map { $0 % (levels + 1) }
        var row = [UInt8](repeating: 0, count: (8 * bitDepth + 7) / 8)
        for (index, value) in values.enumerated() {
            let bit = index * bitDepth
            row[bit / 8] |= UInt8(value << (8 - bitDepth - bit % 8))
        }
        let png = TestImages.png(row, width: 8, height: 1, colorType: 0, bitDepth: bitDepth)
        let expected = values.flatMap { value -> [UInt8] in let v = UInt8(value * 255 / levels); return [v, v, v] }
        #expect(try decode(png).pixels == expected)
    }

    @Test(arguments: [false, true]) func paletteWithTransparency(interlaced: Bool) throws {
        let palette: [UInt8] = [10, 20, 30, 200, 100, 50, 0, 255, 0, 1, 2, 3]
        let indices: [UInt8] = (0..<(sourceWidth * sourceHeight)).map { UInt8($0 % 4) }
        let png = TestImages.png(indices, width: sourceWidth, height: sourceHeight, colorType: 3, bitDepth: 8,
                                 interlaced: interlaced, palette: palette, transparency: [0, 128])
        let expected = indices.flatMap { Array(palette[(Int($0) * 3)..<(Int($0) * 3 + 3)]) }
        #expect(try decode(png).pixels == expected)
    }

    @Test func fourBitPalette() throws {
        let palette: [UInt8] = (0..<16).flatMap { (level: Int) -> [UInt8] in [UInt8(level * 16), UInt8(255 - level * 16), UInt8(level)] }
        let indices: [UInt8] = [0, 5, 10, 15]  // one row, 4 pixels, 2 a byte
        let png = TestImages.png([0x05, 0xAF], width: 4, height: 1, colorType: 3, bitDepth: 4, palette: palette)
        #expect(try decode(png).pixels == indices.flatMap { Array(palette[(Int($0) * 3)..<(Int($0) * 3 + 3)]) })
    }

    @Test func rgbWithTransparentColourKeepsItsColour() throws {
        let png = TestImages.png(sourceRGB, width: sourceWidth, height: sourceHeight, colorType: 2, bitDepth: 8,
                                 transparency: [sourceRGB[0], sourceRGB[1], sourceRGB[2]])
        #expect(try decode(png).pixels == sourceRGB)
    }
}
