/// Bilinear resizing that stays free of aliasing on big downscales: the triangle filter's
/// support widens with the scale factor, so every source pixel contributes (the same
/// separable convolution Pillow uses, with the same fixed-point rounding, so PlantLeaf sees what
/// the reference pipeline sees). Horizontal pass first, then vertical, 8-bit in between.
public enum Resampler {
    /// Fixed-point weights: 32 bits less 8 for the pixel and 2 of headroom for the sum.
    static let precisionBits = 22

    /// Which source pixels feed each output pixel along one axis, and with what weight.
    struct Kernel {
        let taps: Int
        let starts: [Int]
        let counts: [Int]
        let weights: [Int32]  // taps per output pixel, fixed point

        init(inputSize: Int, outputSize: Int) {
            let scale = Double(inputSize) / Double(outputSize)
            let filterScale = max(scale, 1.0)
            let support = filterScale  // the triangle filter reaches 1 pixel, widened by the scale
            let taps = Int(support.rounded(.up)) * 2 + 1
            var starts = [Int](repeating: 0, count: outputSize)
            var counts = [Int](repeating: 0, count: outputSize)
            var weights = [Int32](repeating: 0, count: outputSize * taps)
            var raw = [Double](repeating: 0, count: taps)
            for output in 0..<outputSize {
                let center = (Double(output) + 0.5) * scale
                // Int(_:) truncates toward zero, as the C cast this mirrors does.
                let first = max(Int(center - support + 0.5), 0)
                let end = min(Int(center + support + 0.5), inputSize)
                let count = end - first
                var total = 0.0
                for tap in 0..<count {
                    let distance = abs((Double(tap + first) - center + 0.5) / filterScale)
                    raw[tap] = distance < 1 ? 1 - distance : 0
                    total += raw[tap]
                }
                for tap in 0..<count {
                    let weight = total == 0 ? 0 : raw[tap] / total
                    let fixed = weight * Double(1 << Resampler.precisionBits)
                    weights[output * taps + tap] = Int32(fixed < 0 ? fixed - 0.5 : fixed + 0.5)
                }
                starts[output] = first
                counts[output] = count
            }
            self.taps = taps
            self.starts = starts
            self.counts = counts
            self.weights = weights
        }
    }

    public static func resize(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
        var result = image
        if image.width != width {
            result = resizeHorizontally(result, to: width)
        }
        if image.height != height {
            result = resizeVertically(result, to: height)
        }
        return result
    }

    static func resizeHorizontally(_ image: RGBImage, to width: Int) -> RGBImage {
        let kernel = Kernel(inputSize: image.width, outputSize: width)
        var output = [UInt8](repeating: 0, count: width * image.height * 3)
        image.pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                kernel.weights.withUnsafeBufferPointer { weights in
                    for y in 0..<image.height {
                        let sourceRow = y * image.width * 3
                        let targetRow = y * width * 3
                        for x in 0..<width {
                            let first = kernel.starts[x]
                            let weightBase = x * kernel.taps
                            var red = Int32(1 << (precisionBits - 1)), green = red, blue = red
                            for tap in 0..<kernel.counts[x] {
                                let weight = weights[weightBase + tap]
                                let pixel = sourceRow + (first + tap) * 3
                                red &+= Int32(source[pixel]) &* weight
                                green &+= Int32(source[pixel + 1]) &* weight
                                blue &+= Int32(source[pixel + 2]) &* weight
                            }
                            target[targetRow + x * 3] = clampToByte(red)
                            target[targetRow + x * 3 + 1] = clampToByte(green)
                            target[targetRow + x * 3 + 2] = clampToByte(blue)
                        }
                    }
                }
            }
        }
        return RGBImage(width: width, height: image.height, pixels: output)
    }

    static func resizeVertically(_ image: RGBImage, to height: Int) -> RGBImage {
        let kernel = Kernel(inputSize: image.height, outputSize: height)
        let rowBytes = image.width * 3
        var output = [UInt8](repeating: 0, count: rowBytes * height)
        var sums = [Int32](repeating: 0, count: rowBytes)
        image.pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                sums.withUnsafeMutableBufferPointer { sums in
                    for y in 0..<height {
                        for index in 0..<rowBytes { sums[index] = Int32(1 << (precisionBits - 1)) }
                        let first = kernel.starts[y]
                        for tap in 0..<kernel.counts[y] {
                            let weight = kernel.weights[y * kernel.taps + tap]
                            let sourceRow = (first + tap) * rowBytes
                            for index in 0..<rowBytes {
                                sums[index] &+= Int32(source[sourceRow + index]) &* weight
                            }
                        }
                        let targetRow = y * rowBytes
                        for index in 0..<rowBytes { target[targetRow + index] = clampToByte(sums[index]) }
                    }
                }
            }
        }
        return RGBImage(width: image.width, height: height, pixels: output)
    }

    @inline(__always)
    static func clampToByte(_ sum: Int32) -> UInt8 {
        let value = sum >> Int32(precisionBits)
        return value < 0 ? 0 : value > 255 ? 255 : UInt8(truncatingIfNeeded: value)
    }
}
