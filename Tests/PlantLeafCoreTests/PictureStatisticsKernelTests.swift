import PlantLeafCore
import PlantLeafSupport
import Testing

/// The verdict's picture statistics as each kernel set gathers them (the AVX2 kernel 8 pixels at
/// a time, the portable loop one at a time) against a plain count of the same rules, on rows of
/// every length from 1 to 300: noise, runs of one colour (flat mid-tones), and the extremes.
@Suite struct PictureStatisticsKernelTests {

    /// The counts `PictureStatistics` documents, one pixel at a time, as plainly as they read.
    static func plainCounts(_ row: [UInt8]) -> (green: Int, midtone: Int, flat: Int, luminanceSum: Int) {
        var (green, midtone, flat, luminanceSum) = (0, 0, 0, 0)
        let pixels = row.count / 3
        for pixel in 0..<pixels {
            let (red, greenValue, blue) = (Int(row[3 * pixel]), Int(row[3 * pixel + 1]), Int(row[3 * pixel + 2]))
            let luminance = 77 * red + 150 * greenValue + 29 * blue
            luminanceSum += luminance
            if PictureStatistics.isGreenTissue(red: red, green: greenValue, blue: blue) { green += 1 }
            guard PictureStatistics.isMidtone(scaledLuminance: luminance) else { continue }
            midtone += 1
            if pixel + 1 < pixels && row[(3 * pixel)..<(3 * pixel + 3)] == row[(3 * pixel + 3)..<(3 * pixel + 6)] { flat += 1 }
        }
        return (green, midtone, flat, luminanceSum)
    }

    static func row(pixels: Int, kind: Int, random: inout SplitMix64) -> [UInt8] {
        var row: [UInt8] = []
        for _ in 0..<pixels {
            switch kind {
            case 0:
                row += (0..<3).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            case 1:
                // Mostly repeats of the pixel before, in leaf greens and greys.
                if row.count >= 3 && random.below(3) != 0 {
                    row += row[(row.count - 3)...]
                } else {
                    row += [UInt8(40 + random.below(160)), UInt8(60 + random.below(190)), UInt8(random.below(120))]
                }
            default:
                row += (0..<3).map { _ in random.below(2) == 0 ? 0 : 255 }
            }
        }
        return row
    }

    @Test(arguments: ResampleKernels.available)
    func everyRowLengthCountsAsThePlainLoop(kernels: ResampleKernels) {
        var random = SplitMix64(seed: 31)
        for pixels in 1...300 {
            let row = Self.row(pixels: pixels, kind: pixels % 3, random: &random)
            var statistics = PictureStatistics()
            var portable = PictureStatistics()
            row.withUnsafeBufferPointer { row in
                statistics.add(row: row.baseAddress!, pixelCount: pixels, kernels: kernels)
                portable.add(row: row.baseAddress!, pixelCount: pixels, kernels: .portable)
            }
            let plain = Self.plainCounts(row)
            #expect(statistics == portable, "\(kernels), \(pixels) pixels")
            #expect(statistics.pixelCount == pixels)
            #expect(statistics.greenPixelCount == plain.green, "\(kernels), \(pixels) pixels")
            #expect(statistics.midtonePixelCount == plain.midtone, "\(kernels), \(pixels) pixels")
            #expect(statistics.flatMidtonePixelCount == plain.flat, "\(kernels), \(pixels) pixels")
            #expect(statistics.luminanceMean == Double(plain.luminanceSum) / 256 / Double(pixels), "\(kernels), \(pixels) pixels")
        }
    }
}
