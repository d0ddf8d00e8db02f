import PlantLeafCore
import Testing

@Suite struct ResamplerTests {
    @Test func sameSizeIsUnchanged() {
        let image = RGBImage(width: 3, height: 2, pixels: (0..<18).map { UInt8($0 * 13) })
        #expect(Resampler.resize(image, width: 3, height: 2) == image)
    }

    @Test func flatColourStaysFlat() {
        let image = RGBImage(width: 500, height: 375, pixels: [UInt8]((0..<(500 * 375)).flatMap { _ in [90, 160, 30] as [UInt8] }))
        let small = Resampler.resize(image, width: 224, height: 224)
        #expect(small.width == 224 && small.height == 224)
        #expect(small.pixels == [UInt8]((0..<(224 * 224)).flatMap { _ in [90, 160, 30] as [UInt8] }))
    }

    @Test func bigDownscaleAveragesInsteadOfAliasing() {
        // One-pixel black/white stripes: point sampling would give stripes or solid colour;
        // a filter that widens with the scale gives mid-grey.
        let width = 2000, height = 8
        let pixels = (0..<(width * height)).flatMap { index -> [UInt8] in
            let value: UInt8 = index % 2 == 0 ? 0 : 255
            return [value, value, value]
        }
        let small = Resampler.resize(RGBImage(width: width, height: height, pixels: pixels), width: 224, height: 8)
        #expect(small.pixels.allSatisfy { $0 > 110 && $0 < 145 })
    }

    @Test func upscaleInterpolatesBetweenNeighbours() {
        let image = RGBImage(width: 2, height: 1, pixels: [0, 0, 0, 200, 200, 200])
        let wide = Resampler.resize(image, width: 4, height: 1)
        let reds = stride(from: 0, to: 12, by: 3).map { wide.pixels[$0] }
        #expect(reds == [0, 50, 150, 200])
    }
}
