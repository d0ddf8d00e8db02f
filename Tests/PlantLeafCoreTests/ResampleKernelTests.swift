import PlantLeafCore
import PlantLeafSupport
import Testing

/// Every SIMD kernel set this CPU runs against the portable Swift loops: the same pixels, bit for
/// bit, on random sizes and content, up and down on each axis, both pass orders, every EXIF
/// orientation, with and without a crop.
@Suite struct ResampleKernelTests {

    static let simdKernels = Array(ResampleKernels.available.dropFirst())

    static func streamed(_ stored: RGBImage, orientation: EXIFOrientation, width: Int, height: Int, crop: CropMode,
                         kernels: ResampleKernels) -> RGBImage {
        let resizer = RowResizer(width: width, height: height, crop: crop, kernels: kernels)
        _ = resizer.begin(width: stored.width, height: stored.height, orientation: orientation)
        stored.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<stored.height { resizer.row(pixels.baseAddress! + y * stored.width * 3, y: y) }
        }
        return resizer.finish()
    }

    /// Noise, or only 0 and 255 (the sums' extremes). Eight bytes a draw, written in place: made
    /// byte by byte through `map`, the pictures took a third of this suite's time in a debug build.
    static func picture(width: Int, height: Int, saturated: Bool, random: inout SplitMix64) -> RGBImage {
        let count = width * height * 3
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var index = 0
            while index < count {
                var draw: UInt64 = random.next()
                for _ in 0..<min(8, count - index) {
                    buffer[index] = saturated ? (draw & 1 == 0 ? 0 : 255) : UInt8(truncatingIfNeeded: draw)
                    draw >>= 8
                    index += 1
                }
            }
            initialized = count
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// Each SIMD kernel set's picture against the portable loops' (made once for them all).
    static func expectSame(_ stored: RGBImage, orientation: EXIFOrientation, width: Int, height: Int, crop: CropMode = .none) {
        let portable = streamed(stored, orientation: orientation, width: width, height: height, crop: crop, kernels: .portable)
        for kernels in simdKernels {
            let simd = streamed(stored, orientation: orientation, width: width, height: height, crop: crop, kernels: kernels)
            // A count, not the images: a failure should name the case, not print 150,000 bytes.
            // The count only on a difference: counted every time, it cost as much as the resizing.
            let differing = simd.pixels == portable.pixels ? 0
                : simd.pixels.count == portable.pixels.count ? zip(simd.pixels, portable.pixels).filter { $0 != $1 }.count : -1
            #expect(differing == 0, "\(kernels): \(stored.width)x\(stored.height) \(orientation) \(crop) -> \(width)x\(height)")
        }
    }

    @Test func neonIsAlwaysThereOnAarch64() {
        #if arch(arm64)
        #expect(ResampleKernels.available.contains(.neon))
        #endif
        #expect(ResampleKernels.available.first == .portable)
        #expect(ResampleKernels.available.contains(ResampleKernels.preferred))
    }

    /// The AVX-512 pass takes the camera's and the samples' shapes; a plan whose windows do not
    /// fit its 64-byte loads runs AVX2's (the tests above cover both under this set).
    @Test(.enabled(if: ResampleKernels.available.contains(.avx512)))
    func avx512PassTakesTheUsualShapes() {
        func horizontal(_ sourceWidth: Int, _ width: Int) -> ResampleKernels {
            ResizePlan(sourceWidth: sourceWidth, sourceHeight: 10, width: width, height: 10, kernels: .avx512).horizontalKernels
        }
        #expect(horizontal(480, 224) == .avx512)
        #expect(horizontal(256, 224) == .avx512)
        #expect(horizontal(320, 224) == .avx512)
        #expect(horizontal(100, 300) == .avx512)
        #expect(horizontal(5000, 24) == .avx2)
        #expect(horizontal(1000, 224) == .avx2)
        #expect(horizontal(2, 224) == .avx2)
    }

    @Test func randomSizesAndContent() {
        var random = SplitMix64(seed: 2024)
        for index in 0..<120 {
            let (sourceWidth, sourceHeight) = (1 + random.below(300), 1 + random.below(300))
            let (width, height) = (1 + random.below(300), 1 + random.below(300))
            let stored = Self.picture(width: sourceWidth, height: sourceHeight, saturated: index % 3 == 0, random: &random)
            Self.expectSame(stored, orientation: EXIFOrientation.allCases[index % 8], width: width, height: height,
                            crop: index % 5 == 0 ? .center : .none)
        }
    }

    /// Each axis up and down, the tall shapes that take the vertical pass first, filters wide
    /// enough to need many taps (5 and 9, whose last tap stands alone, among them), and the
    /// camera's and the samples' sizes.
    @Test(arguments: EXIFOrientation.allCases)
    func everyDirectionAndOrientation(orientation: EXIFOrientation) {
        var random = SplitMix64(seed: 7 + UInt64(orientation.rawValue))
        let cases = [((1, 1), (24, 24)), ((2, 3), (224, 224)), ((5000, 17), (24, 24)), ((17, 5000), (7, 31)),
                     ((256, 256), (224, 224)), ((640, 480), (224, 224)), ((3, 900), (40, 2)), ((100, 30), (300, 10)),
                     ((30, 100), (10, 300)), ((224, 224), (224, 224)), ((224, 1000), (224, 224)), ((1000, 224), (224, 224)),
                     ((301, 913), (224, 224)), ((4000, 37), (5, 9)), ((480, 480), (224, 224)), ((1000, 300), (224, 60))]
        for (index, (source, output)) in cases.enumerated() {
            let stored = Self.picture(width: source.0, height: source.1, saturated: index % 2 == 1, random: &random)
            Self.expectSame(stored, orientation: orientation, width: output.0, height: output.1)
        }
    }
}
