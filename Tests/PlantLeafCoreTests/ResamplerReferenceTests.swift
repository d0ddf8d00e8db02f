import PlantLeafCore
import PlantLeafSupport
import Testing

/// The streaming resampler (rows in as a decoder gives them, stored orientation, fixed point,
/// 8-bit between the passes) against the filter written out plainly: turn the image upright,
/// then each output pixel is the triangle-weighted mean of the source pixels, in doubles,
/// rounded once. The two may differ by the intermediate rounding: at most 1 per channel.
@Suite struct ResamplerReferenceTests {
    /// Triangle weights for one output coordinate, normalised, over every source coordinate.
    static func weights(output: Int, inputSize: Int, outputSize: Int) -> [Double] {
        let scale = Double(inputSize) / Double(outputSize)
        let filterScale = max(scale, 1)
        let center = (Double(output) + 0.5) * scale
        let raw = (0..<inputSize).map { max(0, 1 - abs((Double($0) + 0.5 - center) / filterScale)) }
        let total = raw.reduce(0, +)
        return raw.map { $0 / total }
    }

    static func reference(_ image: RGBImage, width: Int, height: Int) -> [UInt8] {
        // Only the source coordinates with a weight: the filter reaches a few pixels.
        func nonzero(_ weights: [Double]) -> [(index: Int, weight: Double)] {
            weights.enumerated().filter { $0.element > 0 }.map { ($0.offset, $0.element) }
        }
        let columns = (0..<width).map { nonzero(weights(output: $0, inputSize: image.width, outputSize: width)) }
        let rows = (0..<height).map { nonzero(weights(output: $0, inputSize: image.height, outputSize: height)) }
        var output = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                var sums = [0.0, 0.0, 0.0]
                for (sourceY, rowWeight) in rows[y] {
                    for (sourceX, columnWeight) in columns[x] {
                        let pixel = (sourceY * image.width + sourceX) * 3
                        for channel in 0..<3 { sums[channel] += rowWeight * columnWeight * Double(image.pixels[pixel + channel]) }
                    }
                }
                for channel in 0..<3 { output[(y * width + x) * 3 + channel] = UInt8(min(max(sums[channel].rounded(), 0), 255)) }
            }
        }
        return output
    }

    /// Feeds `stored` to a RowResizer row by row, as a decoder would, with `orientation`.
    static func streamed(_ stored: RGBImage, orientation: EXIFOrientation, width: Int, height: Int) -> RGBImage {
        let resizer = RowResizer(width: width, height: height)
        #expect(resizer.begin(width: stored.width, height: stored.height, orientation: orientation))
        stored.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<stored.height { resizer.row(pixels.baseAddress! + y * stored.width * 3, y: y) }
        }
        return resizer.finish()
    }

    static func check(_ stored: RGBImage, orientation: EXIFOrientation, width: Int, height: Int) {
        let ours = streamed(stored, orientation: orientation, width: width, height: height)
        let expected = reference(orientation.apply(to: stored), width: width, height: height)
        #expect(ours.width == width && ours.height == height)
        let worst = zip(ours.pixels, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "\(stored.width)x\(stored.height) \(orientation) -> \(width)x\(height): off by \(worst)")
    }

    static func noise(width: Int, height: Int, random: inout SplitMix64) -> RGBImage {
        RGBImage(width: width, height: height, pixels: (0..<(width * height * 3)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
    }

    @Test func randomSizesUpAndDownInEveryOrientation() {
        var random = SplitMix64(seed: 9)
        for _ in 0..<40 {
            let (sourceWidth, sourceHeight) = (1 + random.below(120), 1 + random.below(120))
            let (width, height) = (1 + random.below(120), 1 + random.below(120))
            let orientation = EXIFOrientation.allCases[random.below(8)]
            Self.check(Self.noise(width: sourceWidth, height: sourceHeight, random: &random), orientation: orientation, width: width, height: height)
        }
    }

    @Test(arguments: EXIFOrientation.allCases)
    func extremeShapes(orientation: EXIFOrientation) {
        var random = SplitMix64(seed: UInt64(orientation.rawValue))
        for (source, output) in [((1, 1), (24, 24)), ((5000, 17), (24, 24)), ((17, 5000), (7, 31)), ((256, 256), (224, 224)), ((3, 900), (40, 2))] {
            Self.check(Self.noise(width: source.0, height: source.1, random: &random), orientation: orientation,
                       width: output.0, height: output.1)
        }
    }

    /// Rows quantised straight into a tensor land where the upright image has them, for a
    /// 1-byte (int8) and a 4-byte (float32) tensor, in every orientation.
    @Test(arguments: EXIFOrientation.allCases)
    func quantisedIntoATensorAsTheUprightImage(orientation: EXIFOrientation) {
        var random = SplitMix64(seed: 40 + UInt64(orientation.rawValue))
        let stored = Self.noise(width: 37, height: 23, random: &random)
        let (width, height) = (12, 9)
        let upright = Self.streamed(stored, orientation: orientation, width: width, height: height)
        for type in [ElementType.int8, .float32] {
            let tensor = TensorInfo(name: "input", elementType: type, shape: [1, height, width, 3],
                                    quantization: type == .int8 ? Quantization(scale: 1.0 / 255, zeroPoint: -128) : nil)
            let quantizer = InputQuantizer(tensor: tensor)
            var memory = [UInt8](repeating: 0xAA, count: tensor.byteCount)
            let resizer = RowResizer(width: width, height: height)
            memory.withUnsafeMutableBytes { memory in
                resizer.writing(into: memory, with: quantizer) {
                    _ = resizer.begin(width: stored.width, height: stored.height, orientation: orientation)
                    stored.pixels.withUnsafeBufferPointer { pixels in
                        for y in 0..<stored.height { resizer.row(pixels.baseAddress! + y * stored.width * 3, y: y) }
                    }
                }
            }
            var expected = [UInt8](repeating: 0, count: tensor.byteCount)
            expected.withUnsafeMutableBytes { expected in
                upright.pixels.withUnsafeBufferPointer { quantizer.write($0, into: expected) }
            }
            #expect(memory == expected, "\(orientation), \(type)")
        }
    }
}

extension SplitMix64 {
    /// A number from 0 to `bound` - 1 (the tests' sizes and pixels; the slight bias is no matter).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
