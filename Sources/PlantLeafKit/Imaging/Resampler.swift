/// Bilinear resizing that stays free of aliasing on big downscales: the triangle filter's
/// support widens with the scale factor, so every source pixel contributes (the same
/// separable convolution Pillow uses, with the same fixed-point rounding, so PlantLeaf sees what
/// the reference pipeline sees). Horizontal pass first, row by row as a decoder delivers them,
/// then vertical, 8-bit in between.
public enum Resampler {
    /// Fixed-point weights: 32 bits less 8 for the pixel and 2 of headroom for the sum.
    static let precisionBits = 22
    static let roundingTerm = Int32(1 << (precisionBits - 1))

    /// Which source pixels feed each output pixel along one axis, and with what weight. Every
    /// output pixel reads exactly `taps` neighbours from `starts[i]` (zero weights pad the
    /// shorter windows, and windows are shifted inside the image at the edges), so the inner
    /// loops have a fixed length the compiler can unroll.
    struct Kernel: Sendable {
        let taps: Int
        let starts: [Int]
        let weights: [Int32]  // `taps` per output pixel, fixed point

        init(inputSize: Int, outputSize: Int) {
            let scale = Double(inputSize) / Double(outputSize)
            let filterScale = max(scale, 1.0)
            let support = filterScale  // the triangle filter reaches 1 pixel, widened by the scale
            // Pillow multiplies by the reciprocal rather than dividing: the two can differ in the
            // last bit, which the fixed-point rounding below can turn into a different pixel.
            let inverseFilterScale = 1.0 / filterScale
            var windows: [(first: Int, weights: [Double])] = []
            for output in 0..<outputSize {
                let center = (Double(output) + 0.5) * scale
                // Int(_:) truncates toward zero, as the C cast this mirrors does.
                let first = max(Int(center - support + 0.5), 0)
                let end = min(Int(center + support + 0.5), inputSize)
                var raw = (first..<end).map { source in
                    let distance = abs((Double(source) - center + 0.5) * inverseFilterScale)
                    return distance < 1 ? 1 - distance : 0
                }
                let total = raw.reduce(0, +)
                if total != 0 { raw = raw.map { $0 / total } }
                // Zero weights at the window's ends add nothing: drop them to keep `taps` small.
                var start = first
                while raw.count > 1, raw.first == 0 { raw.removeFirst(); start += 1 }
                while raw.count > 1, raw.last == 0 { raw.removeLast() }
                windows.append((start, raw))
            }
            let taps = min(windows.map(\.weights.count).max() ?? 1, inputSize)
            var starts = [Int](repeating: 0, count: outputSize)
            var weights = [Int32](repeating: 0, count: outputSize * taps)
            for (output, window) in windows.enumerated() {
                let start = min(window.first, inputSize - taps)
                for (tap, weight) in window.weights.enumerated() {
                    let fixed = weight * Double(1 << Resampler.precisionBits)
                    weights[output * taps + (window.first - start) + tap] = Int32(fixed < 0 ? fixed - 0.5 : fixed + 0.5)
                }
                starts[output] = start
            }
            self.taps = taps
            self.starts = starts
            self.weights = weights
        }
    }

    /// Resizes `image` to width x height. Callers resizing many images of one size keep a
    /// `ResizePlan` instead, so the filter weights are worked out once.
    public static func resize(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
        ResizePlan(sourceWidth: image.width, sourceHeight: image.height, width: width, height: height).resize(image)
    }

    /// One row's horizontal pass: `kernel.starts.count` output pixels from a row of the source.
    static func resizeRow(_ source: UnsafePointer<UInt8>, with kernel: Kernel, into target: UnsafeMutablePointer<UInt8>) {
        let taps = kernel.taps
        kernel.weights.withUnsafeBufferPointer { weights in
            kernel.starts.withUnsafeBufferPointer { starts in
                for x in 0..<starts.count {
                    let window = source + starts[x] * 3
                    let windowWeights = weights.baseAddress! + x * taps
                    var red = roundingTerm, green = roundingTerm, blue = roundingTerm
                    for tap in 0..<taps {
                        let pixel = window + tap * 3
                        let weight = windowWeights[tap]
                        red &+= Int32(pixel[0]) &* weight
                        green &+= Int32(pixel[1]) &* weight
                        blue &+= Int32(pixel[2]) &* weight
                    }
                    target[x * 3] = clampToByte(red)
                    target[x * 3 + 1] = clampToByte(green)
                    target[x * 3 + 2] = clampToByte(blue)
                }
            }
        }
    }

    /// The vertical pass over rows of `rowBytes` bytes: output row y blends source rows from
    /// `kernel.starts[y]`.
    static func resizeColumns(_ source: UnsafePointer<UInt8>, rowBytes: Int, with kernel: Kernel, into target: UnsafeMutablePointer<UInt8>) {
        kernel.weights.withUnsafeBufferPointer { weights in
            for y in 0..<kernel.starts.count {
                blendRows(source + kernel.starts[y] * rowBytes, rowBytes: rowBytes, weights: weights.baseAddress! + y * kernel.taps,
                          taps: kernel.taps, into: target + y * rowBytes)
            }
        }
    }

    /// One output row as the weighted sum of `taps` consecutive input rows. The common small
    /// tap counts get straight-line loops, which the compiler vectorises across the row.
    @inline(__always)
    static func blendRows(_ rows: UnsafePointer<UInt8>, rowBytes: Int, weights: UnsafePointer<Int32>, taps: Int,
                          into target: UnsafeMutablePointer<UInt8>) {
        switch taps {
        case 2:
            let (r0, r1) = (rows, rows + rowBytes)
            let (w0, w1) = (weights[0], weights[1])
            for i in 0..<rowBytes {
                target[i] = clampToByte(roundingTerm &+ Int32(r0[i]) &* w0 &+ Int32(r1[i]) &* w1)
            }
        case 3:
            let (r0, r1, r2) = (rows, rows + rowBytes, rows + 2 * rowBytes)
            let (w0, w1, w2) = (weights[0], weights[1], weights[2])
            for i in 0..<rowBytes {
                target[i] = clampToByte(roundingTerm &+ Int32(r0[i]) &* w0 &+ Int32(r1[i]) &* w1 &+ Int32(r2[i]) &* w2)
            }
        case 4:
            let (r0, r1, r2, r3) = (rows, rows + rowBytes, rows + 2 * rowBytes, rows + 3 * rowBytes)
            let (w0, w1, w2, w3) = (weights[0], weights[1], weights[2], weights[3])
            for i in 0..<rowBytes {
                target[i] = clampToByte(roundingTerm &+ Int32(r0[i]) &* w0 &+ Int32(r1[i]) &* w1 &+ Int32(r2[i]) &* w2 &+ Int32(r3[i]) &* w3)
            }
        default:
            for i in 0..<rowBytes {
                var sum = roundingTerm
                for tap in 0..<taps { sum &+= Int32(rows[tap * rowBytes + i]) &* weights[tap] }
                target[i] = clampToByte(sum)
            }
        }
    }

    /// Drops the fixed-point fraction (the sum started at one half, so this rounds) and clamps.
    @inline(__always)
    static func clampToByte(_ sum: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max(sum &>> Int32(precisionBits), 0), 255))
    }
}

/// The filter weights for resizing one source size to one target size, worked out once.
public struct ResizePlan: Sendable {
    public let sourceWidth: Int
    public let sourceHeight: Int
    public let width: Int
    public let height: Int
    let horizontal: Resampler.Kernel?
    let vertical: Resampler.Kernel?

    public init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.width = width
        self.height = height
        horizontal = sourceWidth == width ? nil : Resampler.Kernel(inputSize: sourceWidth, outputSize: width)
        vertical = sourceHeight == height ? nil : Resampler.Kernel(inputSize: sourceHeight, outputSize: height)
    }

    public func fits(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) -> Bool {
        (self.sourceWidth, self.sourceHeight, self.width, self.height) == (sourceWidth, sourceHeight, width, height)
    }

    /// Bytes `resizeRow` writes per source row, and so per row of the intermediate image.
    var intermediateRowBytes: Int { width * 3 }

    /// The horizontal pass of source row `source` (sourceWidth x 3 bytes) into `target`.
    func resizeRow(_ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>) {
        if let horizontal {
            Resampler.resizeRow(source, with: horizontal, into: target)
        } else {
            target.update(from: source, count: intermediateRowBytes)
        }
    }

    /// The vertical pass over all sourceHeight rows `resizeRow` wrote, into width x height x 3 bytes.
    func resizeColumns(_ intermediate: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>) {
        if let vertical {
            Resampler.resizeColumns(intermediate, rowBytes: intermediateRowBytes, with: vertical, into: target)
        } else {
            target.update(from: intermediate, count: intermediateRowBytes * height)
        }
    }

    /// `image` must be sourceWidth x sourceHeight.
    public func resize(_ image: RGBImage) -> RGBImage {
        precondition(image.width == sourceWidth && image.height == sourceHeight,
                     "a ResizePlan for \(sourceWidth)x\(sourceHeight) was given \(image.width)x\(image.height)")
        let resizer = RowResizer(plan: self)
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<sourceHeight { resizer.row(pixels.baseAddress! + y * sourceWidth * 3, y: y) }
        }
        return resizer.finish()
    }
}

/// Resizes an image that arrives a row at a time, straight from a decoder, to one output size:
/// each row gets the horizontal pass as it comes, into an intermediate image only as wide as the
/// output (a 10000x12000 photo needs 12000 rows of 224 pixels, 8 MB), and the vertical pass runs
/// once the last row is in. Rows and columns outside the crop are skipped as they come; the EXIF
/// turn is applied to the small result. The plan is kept while the sources keep their size, and
/// the buffers are reused.
public final class RowResizer: DecodedRowSink {
    /// The upright output size.
    public let width: Int
    public let height: Int
    /// Applied to the image as stored (camera frames, which carry no EXIF turn).
    public let crop: CropMode
    public private(set) var plan: ResizePlan?
    public private(set) var orientation = EXIFOrientation.upright
    private var region = CropRegion(x: 0, y: 0, width: 0, height: 0)
    private var intermediate: [UInt8] = []

    public init(width: Int, height: Int, crop: CropMode = .none) {
        self.width = width
        self.height = height
        self.crop = crop
    }

    /// A resizer that starts with `plan` (for resizing a whole image with it).
    convenience init(plan: ResizePlan) {
        self.init(width: plan.width, height: plan.height)
        self.plan = plan
        region = CropRegion(x: 0, y: 0, width: plan.sourceWidth, height: plan.sourceHeight)
        intermediate = [UInt8](repeating: 0, count: plan.intermediateRowBytes * plan.sourceHeight)
    }

    public func begin(width sourceWidth: Int, height sourceHeight: Int, orientation: EXIFOrientation) -> Bool {
        self.orientation = orientation
        region = crop.region(width: sourceWidth, height: sourceHeight)
        // Resized as stored, then turned: a quarter turn swaps which stored side becomes which.
        let (storedWidth, storedHeight) = orientation.swapsAxes ? (height, width) : (width, height)
        if plan?.fits(sourceWidth: region.width, sourceHeight: region.height, width: storedWidth, height: storedHeight) != true {
            plan = ResizePlan(sourceWidth: region.width, sourceHeight: region.height, width: storedWidth, height: storedHeight)
        }
        let bytes = storedWidth * 3 * region.height
        if intermediate.count != bytes { intermediate = [UInt8](repeating: 0, count: bytes) }
        return true
    }

    public func row(_ pixels: UnsafePointer<UInt8>, y: Int) {
        guard let plan, (region.y..<(region.y + region.height)).contains(y) else { return }
        intermediate.withUnsafeMutableBufferPointer {
            plan.resizeRow(pixels + region.x * 3, into: $0.baseAddress! + (y - region.y) * plan.intermediateRowBytes)
        }
    }

    /// The resized image, upright: call after the decoder's last row.
    public func finish() -> RGBImage {
        guard let plan else { return RGBImage(width: 0, height: 0, pixels: []) }
        var output = [UInt8](repeating: 0, count: plan.width * plan.height * 3)
        intermediate.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { plan.resizeColumns(source.baseAddress!, into: $0.baseAddress!) }
        }
        return orientation.apply(to: RGBImage(width: plan.width, height: plan.height, pixels: output))
    }
}
