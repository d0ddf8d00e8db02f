import CPNG
import PlantLeafKit
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

@Suite struct JPEGDecoderTests {
    /// Largest difference between two equally sized byte arrays.
    func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// A smooth 64x48 gradient: JPEG keeps it within a few levels at high quality.
    let width = 64, height = 48
    var gradient: [UInt8] {
        (0..<(width * height)).flatMap { index -> [UInt8] in
            let x = index % width, y = index / width
            return [UInt8(x * 4), UInt8(y * 5), UInt8(128 + (x - y) / 2)]
        }
    }

    @Test(arguments: [false, true]) func colourBaselineAndProgressive(progressive: Bool) throws {
        let jpeg = TestImages.jpeg(gradient, width: width, height: height, quality: 100, progressive: progressive)
        let image = try decode(jpeg)
        #expect(image.width == width && image.height == height)
        #expect(maxDifference(image.pixels, gradient) <= 8)
    }

    @Test func grayscaleBecomesEqualChannels() throws {
        let gray = (0..<(width * height)).map { UInt8(($0 % width) * 4) }
        let image = try decode(TestImages.jpeg(gray, width: width, height: height, components: 1, quality: 100))
        #expect(maxDifference(image.pixels, gray.flatMap { [$0, $0, $0] }) <= 4)
    }

    @Test func adobeCMYKIsConvertedToRGB() throws {
        // Adobe stores inverted ink: stored (C, M, Y, K) = (200, 100, 50, 255) is RGB (200, 100, 50).
        let cmyk = [UInt8]((0..<(16 * 16)).flatMap { _ in [200, 100, 50, 255] as [UInt8] })
        let image = try decode(TestImages.jpeg(cmyk, width: 16, height: 16, components: 4, quality: 100))
        #expect(maxDifference(image.pixels, [UInt8]((0..<256).flatMap { _ in [200, 100, 50] as [UInt8] })) <= 3)
    }

    @Test func bigPhotoIsDecodedNearTheModelSizeWithDCTScaling() throws {
        let big = TestImages.quadrants(width: 1600, height: 1200)
        let jpeg = TestImages.jpeg(big.pixels, width: big.width, height: big.height, quality: 90)
        let image = try ImageDecoder(minimumSize: (224, 224)).decode(jpeg)
        // 1/4 gives 400x300, the smallest scale that still covers 224 both ways.
        #expect(image.width == 400 && image.height == 300)
        let (red, green, blue) = image[50, 50]
        #expect(red > 250 && green < 5 && blue < 5)
        #expect(try ImageDecoder().decode(jpeg).width == 1600)
    }

    /// Only 1/8, 1/4, 1/2 and 1/1 have SIMD IDCTs: 800x600 would fit 224 at 3/8 but decodes at
    /// 1/2, and a 256x256 sample (7/8 would fit) at full size.
    @Test func dctScalingUsesOnlyTheFastScales() throws {
        let decoder = ImageDecoder(minimumSize: (224, 224))
        for (width, height, expected) in [(800, 600, (400, 300)), (256, 256, (256, 256)), (2000, 1800, (250, 225))] {
            let picture = TestImages.quadrants(width: width, height: height)
            let image = try decoder.decode(TestImages.jpeg(picture.pixels, width: width, height: height, quality: 80))
            #expect(image.width == expected.0 && image.height == expected.1, "\(width)x\(height) decoded at \(image.width)x\(image.height)")
        }
    }
}

@Suite struct FormatDetectionTests {
    @Test func formatComesFromBytesNotName() {
        #expect(ImageFormat.detect(TestImages.png([0, 0, 0], width: 1, height: 1, colorType: 2, bitDepth: 8)) == .png)
        #expect(ImageFormat.detect(TestImages.jpeg([0, 0, 0], width: 1, height: 1)) == .jpeg)
        #expect(ImageFormat.detect(Array("hello, this is text".utf8)) == nil)
    }
}
