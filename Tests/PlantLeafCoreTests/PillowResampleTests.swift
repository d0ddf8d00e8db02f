import PlantLeafCore
import PlantLeafSupport
import Testing

/// The streaming resizer against Pillow 13.0.0's resample written out plainly from its release
/// source (src/libImaging/Resample.c): coefficients in doubles, rounded to 22 bits, one whole
/// pass over the image after the other, in the order Pillow chooses from the sizes. Equal bit
/// for bit, for every shape, with every kernel set.
@Suite struct PillowResampleTests {

    /// Pillow's precompute_coeffs and normalize_coeffs_8bpc for the bilinear filter.
    static func coefficients(inputSize: Int, outputSize: Int) -> (bounds: [(min: Int, count: Int)], weights: [[Int32]]) {
        let scale = Double(inputSize) / Double(outputSize)
        let filterScale = max(scale, 1.0)
        let support = 1.0 * filterScale
        let inverse = 1.0 / filterScale
        var bounds: [(min: Int, count: Int)] = [], weights: [[Int32]] = []
        for output in 0..<outputSize {
            let center = (Double(output) + 0.5) * scale
            let low = max(Int(center - support + 0.5), 0)
            let high = min(Int(center + support + 0.5), inputSize)
            var k = (low..<high).map { x -> Double in
                let distance = abs((Double(x) - center + 0.5) * inverse)
                return distance < 1 ? 1 - distance : 0
            }
            let total = k.reduce(0, +)
            if total != 0 { k = k.map { $0 / total } }
            bounds.append((low, high - low))
            // Pillow's rounding to 22-bit fixed point, one typed step at a time: Swift 6.0's type
            // checker gives up on the one-line form under emulation.
            let unit: Double = 4_194_304
            weights.append(k.map { (weight: Double) -> Int32 in
                let scaled: Double = weight * unit
                let rounded: Double = weight < 0 ? scaled - 0.5 : scaled + 0.5
                return Int32(rounded)
            })
        }
        return (bounds, weights)
    }

    static func clip8(_ sum: Int32) -> UInt8 { UInt8(min(max(sum >> 22, 0), 255)) }

    static func horizontal(_ pixels: [UInt8], width: Int, height: Int, to outputWidth: Int) -> [UInt8] {
        let (bounds, weights) = coefficients(inputSize: width, outputSize: outputWidth)
        var output = [UInt8](repeating: 0, count: outputWidth * height * 3)
        for y in 0..<height {
            for x in 0..<outputWidth {
                for channel in 0..<3 {
                    var sum = Int32(1 << 21)
                    for tap in 0..<bounds[x].count {
                        sum += Int32(pixels[(y * width + bounds[x].min + tap) * 3 + channel]) * weights[x][tap]
                    }
                    output[(y * outputWidth + x) * 3 + channel] = clip8(sum)
                }
            }
        }
        return output
    }

    static func vertical(_ pixels: [UInt8], width: Int, height: Int, to outputHeight: Int) -> [UInt8] {
        let (bounds, weights) = coefficients(inputSize: height, outputSize: outputHeight)
        var output = [UInt8](repeating: 0, count: width * outputHeight * 3)
        for y in 0..<outputHeight {
            for i in 0..<(width * 3) {
                var sum = Int32(1 << 21)
                for tap in 0..<bounds[y].count { sum += Int32(pixels[(bounds[y].min + tap) * width * 3 + i]) * weights[y][tap] }
                output[y * width * 3 + i] = clip8(sum)
            }
        }
        return output
    }

    /// ImagingResampleInner: a pass only for a side that changes size; vertical first when the
    /// height shrinks by more than twice as many pixels as the width.
    static func pillow(_ image: RGBImage, width: Int, height: Int) -> [UInt8] {
        let horizontalFirst = !(image.height - height > 0 && image.height - height > (image.width - width) * 2)
        var pixels = image.pixels, (currentWidth, currentHeight) = (image.width, image.height)
        func horizontalPass() {
            guard width != currentWidth else { return }
            pixels = horizontal(pixels, width: currentWidth, height: currentHeight, to: width)
            currentWidth = width
        }
        func verticalPass() {
            guard height != currentHeight else { return }
            pixels = vertical(pixels, width: currentWidth, height: currentHeight, to: height)
            currentHeight = height
        }
        if horizontalFirst { horizontalPass(); verticalPass() } else { verticalPass(); horizontalPass() }
        return pixels
    }

    @Test(arguments: ResampleKernels.available)
    func equalsPillowOnEveryShape(kernels: ResampleKernels) {
        var random = SplitMix64(seed: 13)
        // Tall shapes (the vertical pass first), wide ones, squares, up and down.
        var cases = [((17, 500), (7, 31)), ((224, 1000), (224, 224)), ((300, 900), (224, 224)), ((480, 640), (224, 224)),
                     ((640, 480), (224, 224)), ((256, 256), (224, 224)), ((50, 400), (60, 100)), ((3, 200), (2, 9))]
        for _ in 0..<30 {
            cases.append(((1 + random.below(200), 1 + random.below(400)), (1 + random.below(150), 1 + random.below(150))))
        }
        for (source, output) in cases {
            let image = RGBImage(width: source.0, height: source.1,
                                 pixels: (0..<(source.0 * source.1 * 3)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            let resizer = RowResizer(width: output.0, height: output.1, crop: .none, kernels: kernels)
            _ = resizer.begin(width: image.width, height: image.height, orientation: .upright)
            image.pixels.withUnsafeBufferPointer { pixels in
                for y in 0..<image.height { resizer.row(pixels.baseAddress! + y * image.width * 3, y: y) }
            }
            let expected = Self.pillow(image, width: output.0, height: output.1)
            let differing = zip(resizer.finish().pixels, expected).filter { $0 != $1 }.count
            #expect(differing == 0, "\(kernels): \(source) -> \(output)")
        }
    }

    /// The order shows in the pixels: horizontal first on a tall shape differs from Pillow.
    @Test func passOrderMatters() {
        var random = SplitMix64(seed: 5)
        let image = RGBImage(width: 300, height: 900, pixels: (0..<(300 * 900 * 3)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        let horizontalFirst = Self.vertical(Self.horizontal(image.pixels, width: 300, height: 900, to: 224), width: 224, height: 900, to: 224)
        #expect(horizontalFirst != Self.pillow(image, width: 224, height: 224))
    }
}
