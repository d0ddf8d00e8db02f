import PlantLeafCore
import PlantLeafTestSupport
import Testing

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
        let image = try ImageDecoder().decode(jpeg)
        #expect(image.width == width && image.height == height)
        #expect(maxDifference(image.pixels, gradient) <= 8)
    }

    /// The quality a JPEG was written at is read back from its luminance table (libjpeg's own
    /// scaling, so exactly), colour or grey; a PNG has none.
    @Test func estimatedQualityIsTheEncodersSetting() throws {
        let gray = (0..<(width * height)).map { UInt8(($0 % width) * 4) }
        for quality in [1, 5, 10, 15, 20, 25, 30, 50, 75, 90, 100] {
            let colour = try ImageDecoder().decode(TestImages.jpeg(gradient, width: width, height: height, quality: quality), into: DiscardedRows())
            #expect(colour == DecodedFile(format: .jpeg, jpegQuality: quality))
            let grey = try ImageDecoder().decode(TestImages.jpeg(gray, width: width, height: height, components: 1, quality: quality),
                                                 into: DiscardedRows())
            #expect(grey.jpegQuality == quality)
        }
        let png = TestImages.png(gray, width: width, height: height, colorType: 0, bitDepth: 8)
        #expect(try ImageDecoder().decode(png, into: DiscardedRows()) == DecodedFile(format: .png))
    }

    @Test func grayscaleBecomesEqualChannels() throws {
        let gray = (0..<(width * height)).map { UInt8(($0 % width) * 4) }
        let image = try ImageDecoder().decode(TestImages.jpeg(gray, width: width, height: height, components: 1, quality: 100))
        #expect(maxDifference(image.pixels, gray.flatMap { [$0, $0, $0] }) <= 4)
    }

    @Test func adobeCMYKIsConvertedToRGB() throws {
        // Adobe stores inverted ink: stored (C, M, Y, K) = (200, 100, 50, 255) is RGB (200, 100, 50).
        let cmyk = [UInt8]((0..<(16 * 16)).flatMap { _ in [200, 100, 50, 255] as [UInt8] })
        let image = try ImageDecoder().decode(TestImages.jpeg(cmyk, width: 16, height: 16, components: 4, quality: 100))
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
