import CResample
import Glibc

/// Bilinear resizing that stays free of aliasing on big downscales: the triangle filter's
/// support widens with the scale factor, so every source pixel contributes (the same
/// separable convolution Pillow uses, with the same fixed-point rounding and the same order of
/// the two passes, 8-bit in between, so PlantLeaf sees what the reference pipeline sees).
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
        /// The leading outputs whose window ends before the input's last pixel: for them the
        /// horizontal pass reads each 3-byte pixel as a 4-byte word without leaving the row.
        let wordReadableOutputs: Int

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
            // The triangle filter has no negative lobe and its weights sum to one, so a sum of
            // bytes times weights lies in 0...255 after the shift and the passes need no clamp:
            // the rounded weights may add up to at most 2^22 + taps / 2, and the largest sum,
            // 255 (2^22 + 8192) + 2^21, still shifts down to 255.
            for output in 0..<outputSize {
                let window = weights[(output * taps)..<(output * taps + taps)]
                precondition(window.allSatisfy { $0 >= 0 } && window.reduce(0, +) <= (1 << Resampler.precisionBits) + 8192,
                             "resize weights outside the range that keeps sums within a byte")
            }
            self.taps = taps
            self.starts = starts
            self.weights = weights
            wordReadableOutputs = starts.prefix { $0 + taps <= inputSize - 1 }.count
        }
    }

    /// Resizes `image` to width x height. Callers resizing many images of one size keep a
    /// `ResizePlan` instead, so the filter weights are worked out once.
    public static func resize(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
        ResizePlan(sourceWidth: image.width, sourceHeight: image.height, width: width, height: height).resize(image)
    }

    /// One row's horizontal pass: `kernel.starts.count` output pixels from a row of the source.
    /// Each pixel is one vector of 4 lanes (R, G, B and a lane that is ignored), so a tap is one
    /// vector multiply-add; the sums are the same as channel by channel. The common tap counts
    /// get their own copy of the loop, which the compiler unrolls.
    static func resizeRow(_ source: UnsafePointer<UInt8>, with kernel: Kernel, into target: UnsafeMutablePointer<UInt8>) {
        kernel.weights.withUnsafeBufferPointer { weights in
            kernel.starts.withUnsafeBufferPointer { starts in
                let weights = weights.baseAddress!
                switch kernel.taps {
                case 2: resizeRow(source, starts: starts, weights: weights, taps: 2, wordReadable: kernel.wordReadableOutputs, into: target)
                case 3: resizeRow(source, starts: starts, weights: weights, taps: 3, wordReadable: kernel.wordReadableOutputs, into: target)
                case 4: resizeRow(source, starts: starts, weights: weights, taps: 4, wordReadable: kernel.wordReadableOutputs, into: target)
                case 5: resizeRow(source, starts: starts, weights: weights, taps: 5, wordReadable: kernel.wordReadableOutputs, into: target)
                case 6: resizeRow(source, starts: starts, weights: weights, taps: 6, wordReadable: kernel.wordReadableOutputs, into: target)
                default:
                    resizeRow(source, starts: starts, weights: weights, taps: kernel.taps, wordReadable: kernel.wordReadableOutputs, into: target)
                }
            }
        }
    }

    @inline(__always)
    private static func resizeRow(_ source: UnsafePointer<UInt8>, starts: UnsafeBufferPointer<Int>, weights: UnsafePointer<Int32>,
                                  taps: Int, wordReadable: Int, into target: UnsafeMutablePointer<UInt8>) {
        let bytes = UnsafeRawPointer(source), output = UnsafeMutableRawPointer(target)
        // A word is read per pixel and written per output pixel (its 4th byte is overwritten by
        // the next pixel), except where that would pass the end of the source or target row.
        let wordWritable = min(wordReadable, starts.count - 1)
        for x in 0..<starts.count {
            let window = starts[x] &* 3
            let windowWeights = weights + x &* taps
            var sum = SIMD4<Int32>(repeating: roundingTerm)
            if x < wordReadable {
                for tap in 0..<taps {
                    let pixel = bytes.loadUnaligned(fromByteOffset: window &+ tap &* 3, as: SIMD4<UInt8>.self)
                    sum &+= SIMD4<Int32>(truncatingIfNeeded: pixel) &* windowWeights[tap]
                }
            } else {
                for tap in 0..<taps {
                    let pixel = source + (window &+ tap &* 3)
                    sum &+= SIMD4<Int32>(Int32(pixel[0]), Int32(pixel[1]), Int32(pixel[2]), 0) &* windowWeights[tap]
                }
            }
            let pixel = SIMD4<UInt8>(truncatingIfNeeded: sum &>> Int32(precisionBits))
            if x < wordWritable {
                output.storeBytes(of: pixel, toByteOffset: x &* 3, as: SIMD4<UInt8>.self)
            } else {
                (target[x &* 3], target[x &* 3 &+ 1], target[x &* 3 &+ 2]) = (pixel[0], pixel[1], pixel[2])
            }
        }
    }

    /// One output row as the weighted sum of `taps` input rows (`rows[0]` to `rows[taps - 1]`,
    /// consecutive in the image). The common small tap counts get straight-line loops, which the
    /// compiler vectorises across the row; larger ones (big downscales) add a row at a time into
    /// `sums`, which holds `rowBytes` values.
    @inline(__always)
    static func blendRows(_ rows: UnsafePointer<UnsafePointer<UInt8>?>, rowBytes: Int, weights: UnsafePointer<Int32>, taps: Int,
                          sums: UnsafeMutablePointer<Int32>, into target: UnsafeMutablePointer<UInt8>) {
        switch taps {
        case 1:
            target.update(from: rows[0]!, count: rowBytes)
        case 2:
            let (r0, r1) = (rows[0]!, rows[1]!)
            let (w0, w1) = (weights[0], weights[1])
            for i in 0..<rowBytes {
                target[i] = toByte(roundingTerm &+ Int32(r0[i]) &* w0 &+ Int32(r1[i]) &* w1)
            }
        case 3:
            let (r0, r1, r2) = (rows[0]!, rows[1]!, rows[2]!)
            let (w0, w1, w2) = (weights[0], weights[1], weights[2])
            for i in 0..<rowBytes {
                target[i] = toByte(roundingTerm &+ Int32(r0[i]) &* w0 &+ Int32(r1[i]) &* w1 &+ Int32(r2[i]) &* w2)
            }
        case 4:
            let (r0, r1, r2, r3) = (rows[0]!, rows[1]!, rows[2]!, rows[3]!)
            let (w0, w1, w2, w3) = (weights[0], weights[1], weights[2], weights[3])
            for i in 0..<rowBytes {
                target[i] = toByte(roundingTerm &+ Int32(r0[i]) &* w0 &+ Int32(r1[i]) &* w1 &+ Int32(r2[i]) &* w2 &+ Int32(r3[i]) &* w3)
            }
        default:
            for i in 0..<rowBytes { sums[i] = roundingTerm }
            for tap in 0..<taps {
                let row = rows[tap]!, weight = weights[tap]
                for i in 0..<rowBytes { sums[i] = sums[i] &+ Int32(row[i]) &* weight }
            }
            for i in 0..<rowBytes { target[i] = toByte(sums[i]) }
        }
    }

    /// Drops the fixed-point fraction (the sum started at one half, so this rounds); the
    /// kernel's weights keep the result within a byte.
    @inline(__always)
    static func toByte(_ sum: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: sum &>> Int32(precisionBits))
    }
}

/// Which implementation of the resize's inner loops runs: the portable Swift loops above, which
/// are the reference, or one of the C SIMD kernel sets, each bit-identical to them.
package enum ResampleKernels: String, Sendable, CaseIterable {
    case portable
    case sse41 = "sse4.1"
    case avx2
    /// AVX2's kernels with AVX-512's horizontal pass (F, BW, VL, VBMI and VNNI).
    case avx512
    case neon

    /// The sets this CPU runs, portable first and the fastest last.
    package static let available: [ResampleKernels] = {
        let cpu = resample_cpu_kernels()
        return allCases.filter { kernels in
            switch kernels {
            case .portable: return true
            case .sse41: return cpu & Int32(PL_RESAMPLE_SSE41) != 0
            case .avx2: return cpu & Int32(PL_RESAMPLE_AVX2) != 0
            case .avx512: return cpu & Int32(PL_RESAMPLE_AVX512) != 0
            case .neon: return cpu & Int32(PL_RESAMPLE_NEON) != 0
            }
        }
    }()

    /// What resizers use unless told otherwise: the set PLANTLEAF_RESAMPLE_KERNELS names when
    /// this CPU runs it (for timing one set against another), else the fastest available.
    package static let preferred: ResampleKernels = {
        if let name = getenv("PLANTLEAF_RESAMPLE_KERNELS").map({ String(cString: $0) }),
           let named = ResampleKernels(rawValue: name), available.contains(named) {
            return named
        }
        return available.last!
    }()
}

/// The filter weights for resizing one source size to one target size, worked out once. A class,
/// so that a resizer's per-row work retains one reference rather than each of its arrays.
public final class ResizePlan: Sendable {
    public let sourceWidth: Int
    public let sourceHeight: Int
    public let width: Int
    public let height: Int
    let horizontal: Resampler.Kernel?
    let vertical: Resampler.Kernel?
    /// Pillow 13 runs the vertical pass first when the height shrinks by more than twice as many
    /// pixels as the width does; the 8-bit rounding between the passes makes the order show in
    /// the pixels, so it is Pillow's. Only when both passes run.
    let verticalFirst: Bool
    package let kernels: ResampleKernels
    /// The set whose horizontal pass runs: `kernels`, except that an AVX-512 plan whose windows
    /// do not fit that pass's 64-byte loads (downscales past about 3:1, rows under 22 pixels)
    /// runs AVX2's.
    package let horizontalKernels: ResampleKernels
    /// The horizontal weights laid out for the AVX2 or AVX-512 pass (empty for the other sets).
    private let packedHorizontal: [Int32]

    /// Works out the horizontal and vertical kernels (none for a side that keeps its size).
    public convenience init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        self.init(sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height, kernels: .preferred)
    }

    /// A plan whose inner loops are `kernels` (one of `ResampleKernels.available`).
    package init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, kernels: ResampleKernels) {
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.width = width
        self.height = height
        self.kernels = kernels
        let horizontal = sourceWidth == width ? nil : Resampler.Kernel(inputSize: sourceWidth, outputSize: width)
        vertical = sourceHeight == height ? nil : Resampler.Kernel(inputSize: sourceHeight, outputSize: height)
        let shrinkage = (width: sourceWidth - width, height: sourceHeight - height)
        verticalFirst = horizontal != nil && vertical != nil && shrinkage.height > 0 && shrinkage.height > shrinkage.width * 2
        self.horizontal = horizontal
        (horizontalKernels, packedHorizontal) = Self.packed(horizontal, sourceWidth: sourceWidth, for: kernels)
    }

    private static func packed(_ kernel: Resampler.Kernel?, sourceWidth: Int,
                               for kernels: ResampleKernels) -> (ResampleKernels, [Int32]) {
        #if arch(x86_64)
        guard let kernel, kernels == .avx2 || kernels == .avx512 else { return (kernels, []) }
        let outputs = kernel.starts.count
        if kernels == .avx512 {
            var packed = [Int32](repeating: 0, count: resample_avx512_packed_count(kernel.taps, outputs))
            let fits = kernel.starts.withUnsafeBufferPointer { starts in
                packed.withUnsafeMutableBufferPointer {
                    resample_avx512_pack(starts.baseAddress!, kernel.weights, kernel.taps, outputs, sourceWidth, $0.baseAddress!)
                }
            }
            if fits != 0 { return (.avx512, packed) }
        }
        var packed = [Int32](repeating: 0, count: resample_avx2_packed_count(kernel.taps, outputs))
        packed.withUnsafeMutableBufferPointer { resample_avx2_pack(kernel.weights, kernel.taps, outputs, $0.baseAddress!) }
        return (.avx2, packed)
        #else
        return (kernels, [])
        #endif
    }

    /// Whether this plan is the one for these sizes, so it can be kept.
    public func fits(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) -> Bool {
        (self.sourceWidth, self.sourceHeight, self.width, self.height) == (sourceWidth, sourceHeight, width, height)
    }

    /// Bytes per row of the image between the passes: the output's width, or the source's
    /// when the vertical pass runs first.
    var intermediateRowBytes: Int { (verticalFirst ? sourceWidth : width) * 3 }

    /// The horizontal pass of `source` (sourceWidth x 3 bytes) into `target` (width x 3).
    func resizeRow(_ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>) {
        guard let horizontal else { return target.update(from: source, count: width * 3) }
        horizontal.starts.withUnsafeBufferPointer { starts in
            let starts = starts.baseAddress!, taps = horizontal.taps, outputs = width
            switch horizontalKernels {
            #if arch(x86_64)
            case .sse41:
                resample_horizontal_sse41(source, sourceWidth, starts, horizontal.weights, taps, outputs, target)
            case .avx2:
                resample_horizontal_avx2(source, sourceWidth, starts, packedHorizontal, taps, outputs, target)
            case .avx512:
                resample_horizontal_avx512(source, packedHorizontal, taps, outputs, target)
            #endif
            #if arch(arm64)
            case .neon:
                resample_horizontal_neon(source, sourceWidth, starts, horizontal.weights, taps, outputs, target)
            #endif
            default:
                Resampler.resizeRow(source, with: horizontal, into: target)
            }
        }
    }

    /// The vertical pass for output row `outputRow`, whose window's rows are in `ring`: source
    /// row r in slot r mod `ringRows`, each `rowBytes` long. `sums` holds `rowBytes` values for
    /// the portable loops.
    func blendRows(ring: UnsafePointer<UInt8>, ringRows: Int, rowBytes: Int, outputRow: Int, sums: UnsafeMutablePointer<Int32>,
                   into target: UnsafeMutablePointer<UInt8>) {
        guard let vertical else { return }
        let taps = vertical.taps, first = vertical.starts[outputRow]
        vertical.weights.withUnsafeBufferPointer { weights in
            let weights = weights.baseAddress! + outputRow * taps
            withUnsafeTemporaryAllocation(of: UnsafePointer<UInt8>?.self, capacity: taps) { pointers in
                for tap in 0..<taps { pointers[tap] = ring + (first + tap) % ringRows * rowBytes }
                let pointers = UnsafePointer(pointers.baseAddress!)
                switch kernels {
                #if arch(x86_64)
                case .sse41: resample_vertical_sse41(pointers, weights, taps, rowBytes, target)
                case .avx2, .avx512: resample_vertical_avx2(pointers, weights, taps, rowBytes, target)
                #endif
                #if arch(arm64)
                case .neon: resample_vertical_neon(pointers, weights, taps, rowBytes, target)
                #endif
                default: Resampler.blendRows(pointers, rowBytes: rowBytes, weights: weights, taps: taps, sums: sums, into: target)
                }
            }
        }
    }

    /// Output rows whose vertical window ends at source row `row`, and that window's first row.
    /// Windows never shrink or move back, so every output row is due exactly once, in order.
    func outputRows(completedBy row: Int, from next: Int) -> Range<Int> {
        guard let vertical else { return row..<(row + 1) }
        var end = next
        while end < height, vertical.starts[end] + vertical.taps <= row + 1 { end += 1 }
        return next..<end
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

/// Resizes an image that arrives a row at a time, straight from a decoder, to one output size.
/// Each row goes into a ring only as tall as the vertical filter, after its horizontal pass
/// when that runs first (a 10000x12000 photo needs 108 rows of 224 pixels, 73 KB), as it came
/// when the vertical pass runs first (tall sources), and each output row is blended as soon as
/// its last source row is in, so nothing the size of the source is ever held.
/// Rows and columns outside the crop are skipped as they come. Each output row goes straight to
/// its upright place (the EXIF turn is indexing, not a turned copy): quantised into the model's
/// input tensor (`writing(into:with:_:)`), or into an upright image (`finish()`). The plan is kept
/// while the sources keep their size, and the buffers are reused.
public final class RowResizer: DecodedRowSink {
    /// The upright output size.
    public let width: Int
    public let height: Int
    /// Applied to the image as stored (camera frames, which carry no EXIF turn).
    public let crop: CropMode
    public private(set) var plan: ResizePlan?
    public private(set) var orientation = EXIFOrientation.upright
    private var region = CropRegion(x: 0, y: 0, width: 0, height: 0)
    /// The working rows of the current plan.
    private var rows = ResizeRows(plan: nil)
    private var nextOutputRow = 0
    /// Where finished rows go.
    private var destination = Destination.image
    /// The upright output image, filled a row at a time when rows go to `.image`.
    private var upright: [UInt8] = []
    /// What the verdict checks read from the rows last written into a tensor, gathered as each
    /// row is quantised so the model-size pixels need no second pass (the readings do not depend
    /// on the order of the rows, so they are taken as stored).
    public private(set) var picture = PictureStatistics()

    private enum Destination {
        case image
        /// The model's input tensor (valid only inside `writing(into:with:_:)`).
        case tensor(UnsafeMutableRawBufferPointer, InputQuantizer)
    }

    /// The inner loops its plans run.
    package let kernels: ResampleKernels

    /// A resizer to an upright `width` x `height`, cropping each source with `crop` first.
    public convenience init(width: Int, height: Int, crop: CropMode = .none) {
        self.init(width: width, height: height, crop: crop, kernels: .preferred)
    }

    /// A resizer whose plans run `kernels` (one of `ResampleKernels.available`).
    package init(width: Int, height: Int, crop: CropMode = .none, kernels: ResampleKernels) {
        self.width = width
        self.height = height
        self.crop = crop
        self.kernels = kernels
    }

    /// Starts an image: keeps the plan when the cropped source size is the one before, else
    /// makes one. Always true (the resizer never stops a decode).
    public func begin(width sourceWidth: Int, height sourceHeight: Int, orientation: EXIFOrientation) -> Bool {
        self.orientation = orientation
        region = crop.region(width: sourceWidth, height: sourceHeight)
        readShare = sourceWidth * sourceHeight == 0 ? 1 : Double(region.width * region.height) / Double(sourceWidth * sourceHeight)
        // Resized as stored, then placed upright: a quarter turn swaps which stored side becomes which.
        let (storedWidth, storedHeight) = orientation.swapsAxes ? (height, width) : (width, height)
        if plan?.fits(sourceWidth: region.width, sourceHeight: region.height, width: storedWidth, height: storedHeight) != true {
            start(ResizePlan(sourceWidth: region.width, sourceHeight: region.height, width: storedWidth, height: storedHeight,
                             kernels: kernels))
        }
        nextOutputRow = 0
        return true
    }

    /// A resizer that starts with `plan` (for resizing a whole image with it).
    fileprivate convenience init(plan: ResizePlan) {
        self.init(width: plan.width, height: plan.height, kernels: plan.kernels)
        region = CropRegion(x: 0, y: 0, width: plan.sourceWidth, height: plan.sourceHeight)
        start(plan)
    }

    /// Sizes the buffers for `plan`.
    private func start(_ plan: ResizePlan) {
        self.plan = plan
        rows = ResizeRows(plan: plan)
        upright = [UInt8](repeating: 0, count: plan.width * 3 * plan.height)
        nextOutputRow = 0
    }

    /// Whether the rows written into a tensor are also kept as an upright image (`finish()`
    /// after `writing(into:with:_:)`): for checks that read the model-size picture again, as the
    /// second opinion's model does, with no second decode or resize.
    public var keepsTensorRows = false
    /// The share of the last source's area inside the crop: below 1 when a centred square was
    /// cut from a longer picture.
    public private(set) var readShare = 1.0

    /// Runs `body` (which feeds this resizer a whole image) with every output row quantised
    /// straight into `tensor`, the model's input (width x height x 3 values of its type, upright),
    /// and its statistics gathered into `picture`.
    public func writing<Result>(into tensor: UnsafeMutableRawBufferPointer, with quantizer: InputQuantizer,
                                _ body: () -> Result) -> Result {
        destination = .tensor(tensor, quantizer)
        picture = PictureStatistics()
        defer { destination = .image }
        return body()
    }

    /// Takes source row `y`; rows outside the crop are skipped.
    public func row(_ pixels: UnsafePointer<UInt8>, y: Int) {
        guard let plan, (region.y..<(region.y + region.height)).contains(y) else { return }
        let rows = rows, row = y - region.y, rowBytes = plan.intermediateRowBytes, ringRows = rows.ringRows
        let due = plan.outputRows(completedBy: row, from: nextOutputRow)
        nextOutputRow = due.upperBound
        let slot = rows.ring + (row % ringRows) * rowBytes
        if plan.verticalFirst {
            slot.update(from: pixels + region.x * 3, count: rowBytes)
        } else {
            plan.resizeRow(pixels + region.x * 3, into: slot)
        }
        guard plan.vertical != nil else {
            // Same height: every resized row is an output row.
            for outputRow in due { deliver(slot, y: outputRow) }
            return
        }
        for outputRow in due {
            plan.blendRows(ring: rows.ring, ringRows: ringRows, rowBytes: rowBytes, outputRow: outputRow, sums: rows.sums,
                           into: rows.blended)
            guard plan.verticalFirst else {
                deliver(rows.blended, y: outputRow)
                continue
            }
            plan.resizeRow(rows.blended, into: rows.resized)
            deliver(rows.resized, y: outputRow)
        }
    }

    /// Puts output row `y` (as stored) in its upright place in the destination.
    private func deliver(_ row: UnsafePointer<UInt8>, y: Int) {
        guard let plan else { return }
        let (storedWidth, storedHeight) = (plan.width, plan.height)
        switch destination {
        case .image:
            upright.withUnsafeMutableBytes { upright in
                orientation.place(UnsafeRawPointer(row), storedRow: y, width: storedWidth, height: storedHeight,
                                  pixelBytes: 3, into: upright.baseAddress!)
            }
        case .tensor(let tensor, let quantizer):
            picture.add(row: row, pixelCount: storedWidth, kernels: kernels)
            if keepsTensorRows {
                upright.withUnsafeMutableBytes { upright in
                    orientation.place(UnsafeRawPointer(row), storedRow: y, width: storedWidth, height: storedHeight,
                                      pixelBytes: 3, into: upright.baseAddress!)
                }
            }
            let values = UnsafeBufferPointer(start: row, count: storedWidth * 3)
            let rowBytes = values.count * quantizer.bytesPerValue
            if orientation == .upright {
                // The row's place is one piece of the tensor: quantised straight into it.
                return quantizer.write(values, into: UnsafeMutableRawBufferPointer(rebasing: tensor[(y * rowBytes)..<((y + 1) * rowBytes)]))
            }
            let quantized = UnsafeMutableRawBufferPointer(start: rows.quantized, count: rowBytes)
            quantizer.write(values, into: quantized)
            orientation.place(UnsafeRawPointer(rows.quantized), storedRow: y, width: storedWidth, height: storedHeight,
                              pixelBytes: 3 * quantizer.bytesPerValue, into: tensor.baseAddress!)
        }
    }

    /// The resized image, upright: call after the decoder's last row (rows that went into a
    /// tensor are not kept).
    public func finish() -> RGBImage {
        guard plan != nil else { return RGBImage(width: 0, height: 0, pixels: []) }
        return RGBImage(width: width, height: height, pixels: upright)
    }
}

/// A plan's working rows, allocated once per plan and reached through constant pointers, so the
/// work done per row checks no array for sharing and no property for overlapping access.
private final class ResizeRows {
    /// The rows the vertical pass reads (horizontally resized first or not, as the plan says):
    /// the last `ringRows` of them, source row r in slot r mod ringRows.
    let ring: UnsafeMutablePointer<UInt8>
    let ringRows: Int
    /// The vertical pass's running sums for filters too wide to unroll.
    let sums: UnsafeMutablePointer<Int32>
    /// One row just blended: an output row as stored, or when the vertical pass runs first,
    /// a source-wide row for the horizontal pass.
    let blended: UnsafeMutablePointer<UInt8>
    /// One output row as stored, when the horizontal pass runs last.
    let resized: UnsafeMutablePointer<UInt8>
    /// One output row of tensor values (4 bytes each at most), when a turned row must be
    /// scattered into the tensor.
    let quantized: UnsafeMutableRawPointer

    init(plan: ResizePlan?) {
        ringRows = plan?.vertical?.taps ?? 1
        let rowBytes = plan?.intermediateRowBytes ?? 0, outputRowBytes = (plan?.width ?? 0) * 3
        ring = .allocate(capacity: ringRows * rowBytes)
        sums = .allocate(capacity: rowBytes)
        blended = .allocate(capacity: rowBytes)
        resized = .allocate(capacity: outputRowBytes)
        quantized = .allocate(byteCount: outputRowBytes * MemoryLayout<Float>.size, alignment: MemoryLayout<Float>.alignment)
    }

    deinit {
        ring.deallocate()
        sums.deallocate()
        blended.deallocate()
        resized.deallocate()
        quantized.deallocate()
    }
}
