import CResample

/// What the verdict's picture and vegetation checks read from a picture, gathered row by row so
/// it can run on the model-size image while its rows are quantised into the input tensor, with no
/// second pass over the pixels. Integer sums only, so the same pixels give the same readings on
/// every machine, and two frames can be compared exactly (see `VerdictPolicy.verdict`).
///
/// The rules are those scripts/verdicts/measure.py measured (docs/verdicts.md); change both together.
public struct PictureStatistics: Sendable, Equatable {
    /// Pixels added so far.
    public private(set) var pixelCount = 0
    /// Pixels counted as green tissue (`isGreenTissue`).
    public private(set) var greenPixelCount = 0
    /// Mid-tone pixels (`isMidtone`), and those of them exactly equal to the next pixel in their row.
    public private(set) var midtonePixelCount = 0
    public private(set) var flatMidtonePixelCount = 0
    /// Sums of the luma in 1/256 steps (77 R + 150 G + 29 B) and of its square: at most 65,280²
    /// per pixel, so Int holds the sums for over 2 × 10⁹ pixels, far above the decoders' limit.
    private var scaledLuminanceSum = 0
    private var scaledLuminanceSquareSum = 0

    public init() {}

    /// The statistics of a whole image, row by row.
    public init(image: RGBImage) {
        image.pixels.withUnsafeBufferPointer { pixels in
            guard let start = pixels.baseAddress else { return }
            for row in 0..<image.height { add(row: start + 3 * image.width * row, pixelCount: image.width) }
        }
    }

    /// Adds one row of the picture: `pixelCount` pixels of interleaved 8-bit RGB (3 bytes each)
    /// starting at `row`.
    public mutating func add(row: UnsafePointer<UInt8>, pixelCount: Int) {
        add(row: row, pixelCount: pixelCount, kernels: .preferred)
    }

    /// Adds one row with `kernels`: where they are AVX2 (the AVX-512 set's too) or NEON, its
    /// kernel counts the row 8 or 16 pixels at a time, else the portable loop does; all count
    /// exactly alike.
    package mutating func add(row: UnsafePointer<UInt8>, pixelCount: Int, kernels: ResampleKernels) {
        var sums = pl_picture_row()
        switch kernels {
        #if arch(x86_64)
        case .avx2, .avx512: picture_row_avx2(row, pixelCount, &sums)
        #elseif arch(arm64)
        case .neon: picture_row_neon(row, pixelCount, &sums)
        #endif
        default: return addPortably(row: row, pixelCount: pixelCount)
        }
        self.pixelCount += pixelCount
        scaledLuminanceSum += Int(sums.luma_sum)
        scaledLuminanceSquareSum += Int(sums.luma_square_sum)
        greenPixelCount += Int(sums.green_pixels)
        midtonePixelCount += Int(sums.midtone_pixels)
        flatMidtonePixelCount += Int(sums.flat_midtone_pixels)
    }

    /// The reference loop over a row's pixels. Branch-free, with wrapping arithmetic that cannot
    /// wrap (the bounds are in the property comments), as the green and mid-tone tests go either
    /// way from pixel to pixel in a photo.
    private mutating func addPortably(row: UnsafePointer<UInt8>, pixelCount: Int) {
        var luminanceSum = 0, luminanceSquareSum = 0, greenCount = 0, midtoneCount = 0, flatMidtoneCount = 0
        // A pixel is flat when it is a mid-tone equal to the next one, so it is counted on reaching
        // the next: the previous pixel's bytes as one word, and whether it was a mid-tone.
        var previousBytes: UInt32 = 0, previousIsMidtone = 0
        for pixel in 0..<pixelCount {
            let bytes = (row[3 &* pixel], row[3 &* pixel &+ 1], row[3 &* pixel &+ 2])
            let (red, green, blue) = (Int(bytes.0), Int(bytes.1), Int(bytes.2))
            let scaledLuminance = 77 &* red &+ 150 &* green &+ 29 &* blue
            luminanceSum &+= scaledLuminance
            luminanceSquareSum &+= scaledLuminance &* scaledLuminance
            greenCount &+= Self.isGreenTissue(red: red, green: green, blue: blue) ? 1 : 0
            let isMidtone = Self.isMidtone(scaledLuminance: scaledLuminance) ? 1 : 0
            midtoneCount &+= isMidtone
            let word = UInt32(bytes.0) | UInt32(bytes.1) << 8 | UInt32(bytes.2) << 16
            flatMidtoneCount &+= pixel > 0 && word == previousBytes ? previousIsMidtone : 0
            (previousBytes, previousIsMidtone) = (word, isMidtone)
        }
        self.pixelCount += pixelCount
        scaledLuminanceSum += luminanceSum
        scaledLuminanceSquareSum += luminanceSquareSum
        greenPixelCount += greenCount
        midtonePixelCount += midtoneCount
        flatMidtonePixelCount += flatMidtoneCount
    }

    /// Mean luma, 0...255: BT.601 weights in 8-bit fixed point, (77 R + 150 G + 29 B) / 256, the
    /// Y that JPEG stores. 0 when no pixel was added.
    public var luminanceMean: Double {
        pixelCount == 0 ? 0 : Double(scaledLuminanceSum) / 256 / Double(pixelCount)
    }

    /// The luma's standard deviation over the pixels (population, not sample): how much the
    /// picture varies at all. 0 when no pixel was added.
    public var luminanceSpread: Double {
        guard pixelCount > 0 else { return 0 }
        let count = Double(pixelCount)
        let mean = Double(scaledLuminanceSum) / count
        let variance = Double(scaledLuminanceSquareSum) / count - mean * mean
        return variance.squareRoot() / 256
    }

    /// Share of the pixels, 0...1, that are green tissue. 0 when no pixel was added.
    public var greenShare: Double {
        pixelCount == 0 ? 0 : Double(greenPixelCount) / Double(pixelCount)
    }

    /// Share of the mid-tone pixels, 0...1, exactly equal to the next pixel in their row: high in a
    /// drawn picture (a driver's test pattern, colour bars, a slide), low in a photo, where sensor
    /// and compression noise make neighbours differ. 0 when there is no mid-tone pixel.
    public var flatShare: Double {
        midtonePixelCount == 0 ? 0 : Double(flatMidtonePixelCount) / Double(midtonePixelCount)
    }

    /// Whether a pixel's luma (in 1/256 steps, as `add` sums it) is a mid-tone, 32...224. Darker
    /// and brighter pixels are left out of `flatShare`: a photo's shadows and highlights clip to
    /// flat areas (a lab leaf on near-black cloth is 43 % the one colour (3, 3, 3)).
    public static func isMidtone(scaledLuminance: Int) -> Bool {
        scaledLuminance >= 32 * 256 && scaledLuminance <= 224 * 256
    }

    /// Whether a pixel is green tissue by the excess green index of D. M. Woebbecke, G. E. Meyer,
    /// K. Von Bargen, D. A. Mortensen, "Color indices for weed identification under various soil,
    /// residue, and lighting conditions", Transactions of the ASAE 38(1):259–269, 1995:
    /// with s = R + G + B and the chromatic coordinates r = R/s, g = G/s, b = B/s,
    /// ExG = 2g − r − b > 0.05, here 20 (2G − R − B) > s in integers. ExG is above 0 for green,
    /// yellow-green and yellow (for R = G it is g − b), so yellowed tissue counts; neutral grey,
    /// white, black, brown, red and blue do not. The cut 0.05 rather than 0 keeps warm greys out
    /// (fur, skin: the sample cat photo is 0.23 green at 0, 0.00 at 0.05, the smallest sample
    /// leaf 0.20 and 0.19). Only pixels with s ≥ 90 (a mean level of 30, the picture check's
    /// darkest mean) count: in darker pixels a few levels of noise swing the ratios.
    public static func isGreenTissue(red: Int, green: Int, blue: Int) -> Bool {
        let sum = red + green + blue
        return sum >= 90 && 20 * (2 * green - red - blue) > sum
    }
}
