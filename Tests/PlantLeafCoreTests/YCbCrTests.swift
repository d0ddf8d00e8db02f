import PlantLeafCore
import Testing

@Suite struct YCbCrTests {
    @Test func limitedRangeEndpointsAndPrimaries() {
        expectClose(YCbCr.rgb(y: 16, cb: 128, cr: 128), (0, 0, 0), tolerance: 0)
        expectClose(YCbCr.rgb(y: 235, cb: 128, cr: 128), (255, 255, 255), tolerance: 0)
        expectClose(YCbCr.rgb(y: 126, cb: 128, cr: 128), (128, 128, 128), tolerance: 0)
        // BT.601 limited-range codes of pure red, green and blue.
        expectClose(YCbCr.rgb(y: 81, cb: 90, cr: 240), (255, 0, 0))
        expectClose(YCbCr.rgb(y: 145, cb: 54, cr: 34), (0, 255, 0))
        expectClose(YCbCr.rgb(y: 41, cb: 240, cr: 110), (0, 0, 255))
        #expect(YCbCr.ycbcr(red: 255, green: 0, blue: 0) == (82, 90, 240))
    }

    @Test func roundTripStaysWithinTwoLevels() {
        for red in stride(from: 0, through: 255, by: 51) {
            for green in stride(from: 0, through: 255, by: 51) {
                for blue in stride(from: 0, through: 255, by: 51) {
                    let (y, cb, cr) = YCbCr.ycbcr(red: UInt8(red), green: UInt8(green), blue: UInt8(blue))
                    expectClose(YCbCr.rgb(y: y, cb: cb, cr: cr), (red, green, blue))
                }
            }
        }
    }
}

/// The C row conversions, portable and SIMD, against the per-pixel Swift formula, byte for byte.
@Suite struct YUVRowKernelTests {
    /// Rows of every length up to 70 pixels (vector bodies and tails), random content with
    /// the extremes mixed in, so the clamps on both sides are reached.
    @Test(arguments: ResampleKernels.available)
    func yuyvAndNV12RowsMatchTheFormula(kernels: ResampleKernels) {
        var generator = SystemRandomNumberGenerator()
        for pixels in stride(from: 2, through: 70, by: 2) {
            for _ in 0..<20 {
                let yuyv = (0..<(pixels * 2)).map { _ in randomByte(&generator) }
                let luma = (0..<pixels).map { _ in randomByte(&generator) }
                let chroma = (0..<pixels).map { _ in randomByte(&generator) }
                var expectedYUYV: [UInt8] = [], expectedNV12: [UInt8] = []
                for x in 0..<pixels {
                    let pair = x / 2 * 4
                    let (r, g, b) = YCbCr.rgb(y: yuyv[x * 2], cb: yuyv[pair + 1], cr: yuyv[pair + 3])
                    expectedYUYV += [r, g, b]
                    let (r2, g2, b2) = YCbCr.rgb(y: luma[x], cb: chroma[x / 2 * 2], cr: chroma[x / 2 * 2 + 1])
                    expectedNV12 += [r2, g2, b2]
                }
                var gotYUYV = [UInt8](repeating: 0, count: pixels * 3), gotNV12 = gotYUYV
                gotYUYV.withUnsafeMutableBufferPointer { YCbCr.rgb(yuyv: yuyv, pixels: pixels, into: $0.baseAddress!, kernels: kernels) }
                gotNV12.withUnsafeMutableBufferPointer {
                    YCbCr.rgb(luma: luma, chroma: chroma, pixels: pixels, into: $0.baseAddress!, kernels: kernels)
                }
                #expect(gotYUYV == expectedYUYV, "YUYV, \(pixels) pixels, \(kernels)")
                #expect(gotNV12 == expectedNV12, "NV12, \(pixels) pixels, \(kernels)")
                if gotYUYV != expectedYUYV || gotNV12 != expectedNV12 { return }
            }
        }
    }

    private func randomByte(_ generator: inout SystemRandomNumberGenerator) -> UInt8 {
        // A third of the bytes at the extremes, where the clamps and the offsets' signs matter.
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: return 0
        case 1: return 255
        default: return UInt8.random(in: 0...255, using: &generator)
        }
    }
}
