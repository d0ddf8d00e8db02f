/// Why one captured frame could not be turned into model input. The frame is skipped and counted.
public enum FrameError: PlantLeafError {
    case tooShort(bytes: Int, expected: Int)
    case corruptJPEG(ImageError)

    public var message: String {
        switch self {
        case .tooShort(let bytes, let expected): return "frame has \(bytes) bytes, \(expected) expected"
        case .corruptJPEG: return "MJPEG frame"
        }
    }

    public var details: String? {
        if case .corruptJPEG(let error) = self { return error.description }
        return nil
    }
}

/// Turns captured frames into the model's RGB input: crop, then resize to the model's size.
///
/// Raw YUV frames are resized in YUV (luma at full resolution, chroma at its own) and only the
/// output pixels are converted to RGB, so no full-size RGB frame is ever made. The resize is the
/// classify path's antialiased bilinear filter with its weights rounded to 7 bits (`ShortKernel`),
/// vertical pass first, the horizontal one down column-major buffers. MJPEG frames go through the
/// one JPEG decoder, in strict mode (a damaged frame is an error), DCT-scaled to the smallest
/// fast scale that still covers the model input, its rows streaming into the classify path's
/// `RowResizer` (plan made once per stream).
public final class FrameConverter {
    public let stream: StreamFormat
    public let crop: CropMode
    public let outputSize: FrameSize
    let decoder: ImageDecoder
    /// MJPEG rows stream from the decoder into it, cropped as they come; its plan is made once.
    private let mjpegResizer: RowResizer
    private let planes: [PlaneResize]
    private let components: [ComponentResize]

    /// A converter for frames of `stream` to `outputSize`, cropped with `crop`; its kernels are made here, once.
    public init(stream: StreamFormat, crop: CropMode, outputSize: FrameSize) {
        self.stream = stream
        self.crop = crop
        self.outputSize = outputSize
        decoder = ImageDecoder(minimumSize: (outputSize.width, outputSize.height), strict: true)
        mjpegResizer = RowResizer(width: outputSize.width, height: outputSize.height, crop: crop)
        // MJPEG frames carry their own size, read by the decoder; only raw frames need kernels here.
        guard stream.format != .mjpeg else {
            planes = []
            components = []
            return
        }
        let size = stream.size, line = stream.bytesPerLine
        // YUYV shares chroma across 2 pixels of a row, NV12 across 2x2.
        let region = crop.region(width: size.width, height: size.height, alignment: stream.format == .rgb24 ? 1 : 2)
        let (cropWidth, cropHeight) = (region.width, region.height)
        func kernel(_ input: Int, _ output: Int) -> ShortKernel { ShortKernel(Resampler.Kernel(inputSize: input, outputSize: output)) }
        let rows = kernel(cropHeight, outputSize.height)
        let columns = kernel(cropWidth, outputSize.width)
        switch stream.format {
        case .yuyv:
            // Y0 U Y1 V: luma every 2 bytes, U and V every 4 at offsets 1 and 3.
            planes = [PlaneResize(vertical: rows, planeOffset: 0, firstRow: region.y, rowStart: region.x * 2,
                                  rowBytes: cropWidth * 2, stride: line)]
            let chroma = kernel(cropWidth / 2, outputSize.width)
            components = [ComponentResize(horizontal: columns, plane: 0, offset: 0, step: 2),
                          ComponentResize(horizontal: chroma, plane: 0, offset: 1, step: 4),
                          ComponentResize(horizontal: chroma, plane: 0, offset: 3, step: 4)]
        case .nv12:
            // A luma plane, then a half-height plane of interleaved U V pairs at half width.
            planes = [PlaneResize(vertical: rows, planeOffset: 0, firstRow: region.y, rowStart: region.x,
                                  rowBytes: cropWidth, stride: line),
                      PlaneResize(vertical: kernel(cropHeight / 2, outputSize.height), planeOffset: line * size.height,
                                  firstRow: region.y / 2, rowStart: region.x, rowBytes: cropWidth, stride: line)]
            let chroma = kernel(cropWidth / 2, outputSize.width)
            components = [ComponentResize(horizontal: columns, plane: 0, offset: 0, step: 1),
                          ComponentResize(horizontal: chroma, plane: 1, offset: 0, step: 2),
                          ComponentResize(horizontal: chroma, plane: 1, offset: 1, step: 2)]
        case .rgb24:
            planes = [PlaneResize(vertical: rows, planeOffset: 0, firstRow: region.y, rowStart: region.x * 3,
                                  rowBytes: cropWidth * 3, stride: line)]
            components = (0..<3).map { ComponentResize(horizontal: columns, plane: 0, offset: $0, step: 3) }
        case .mjpeg:
            preconditionFailure("MJPEG frames take the decoder's path (returned above)")
        }
    }

    /// The model-input image for one frame (`bytes` as the driver filled the buffer).
    ///
    /// - Throws: `FrameError.tooShort` for a raw frame with fewer bytes than its format needs,
    ///   `.corruptJPEG` for an MJPEG frame the decoder refuses.
    public func convert(_ bytes: [UInt8]) throws(FrameError) -> RGBImage {
        if stream.format == .mjpeg {
            do {
                try decoder.decode(bytes, into: mjpegResizer)
            } catch {
                throw .corruptJPEG(error)
            }
            return mjpegResizer.finish()
        }
        let expected = stream.format.minimumBytes(width: stream.size.width, height: stream.size.height, bytesPerLine: stream.bytesPerLine)
        guard bytes.count >= expected else { throw .tooShort(bytes: bytes.count, expected: expected) }
        let (width, height) = (outputSize.width, outputSize.height)
        // Vertical pass, each finished row scattered into one column-major buffer per component;
        // then the horizontal pass runs down those columns, contiguous, so both passes vectorise.
        var columns = components.map { [UInt8](repeating: 0, count: $0.sampleCount * height) }
        var resized = components.map { _ in [UInt8](repeating: 0, count: width * height) }
        bytes.withUnsafeBufferPointer { source in
            for (index, plane) in planes.enumerated() {
                plane.verticalPass(source.baseAddress!) { y, sums in
                    for (channel, component) in components.enumerated() where component.plane == index {
                        columns[channel].withUnsafeMutableBufferPointer { component.storeRow(sums, row: y, rowCount: height, into: $0.baseAddress!) }
                    }
                }
            }
        }
        for (channel, component) in components.enumerated() {
            columns[channel].withUnsafeBufferPointer { columns in
                resized[channel].withUnsafeMutableBufferPointer { component.horizontalPass(columns.baseAddress!, rowCount: height, into: $0.baseAddress!) }
            }
        }
        var output = [UInt8](repeating: 0, count: width * height * 3)
        let convertsColour = stream.format != .rgb24
        resized[0].withUnsafeBufferPointer { first in
            resized[1].withUnsafeBufferPointer { second in
                resized[2].withUnsafeBufferPointer { third in
                    output.withUnsafeMutableBufferPointer { target in
                        for y in 0..<height {
                            for x in 0..<width {
                                let source = x &* height &+ y, pixel = (y &* width &+ x) &* 3
                                let values = (first[source], second[source], third[source])
                                (target[pixel], target[pixel &+ 1], target[pixel &+ 2]) =
                                    convertsColour ? YCbCr.rgb(y: values.0, cb: values.1, cr: values.2) : values
                            }
                        }
                    }
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: output)
    }
}

/// The vertical half of the resize over one plane's crop: all bytes of a row filtered alike, so
/// it works on interleaved samples without knowing their layout.
struct PlaneResize {
    let vertical: ShortKernel
    let planeOffset: Int
    let firstRow: Int
    let rowStart: Int
    let rowBytes: Int
    let stride: Int

    /// Filters the crop's rows down to the output rows and hands each one, as fixed-point sums,
    /// to `takeRow`.
    func verticalPass(_ source: UnsafePointer<UInt8>, takeRow: (Int, UnsafePointer<UInt16>) -> Void) {
        var sums = [UInt16](repeating: 0, count: rowBytes)
        let base = source + planeOffset + rowStart
        let rounding = ShortKernel.rounding
        // Wrapping arithmetic throughout: the sizes are fixed at set-up, and overflow checks in
        // these loops would keep the compiler from vectorising them.
        sums.withUnsafeMutableBufferPointer { sums in
            vertical.weights.withUnsafeBufferPointer { weights in
                let sums = sums.baseAddress!, rowBytes = rowBytes
                for y in vertical.starts.indices {
                    for index in 0..<rowBytes { sums[index] = rounding }
                    let first = vertical.starts[y]
                    for tap in 0..<vertical.taps {
                        let weight = weights[y &* vertical.taps &+ tap]
                        let row = base + (firstRow &+ first &+ tap) &* stride
                        for index in 0..<rowBytes { sums[index] = sums[index] &+ UInt16(row[index]) &* weight }
                    }
                    takeRow(y, sums)
                }
            }
        }
    }
}

/// The horizontal half for one component (samples `step` bytes apart from `offset` in a row).
/// It works on the component stored column-major (sample i of output row y at i x rowCount + y),
/// so each output column is a weighted sum of whole input columns: long contiguous loops.
struct ComponentResize {
    let plane: Int
    let offset: Int
    let step: Int
    let sampleCount: Int
    private let kernel: ShortKernel

    init(horizontal kernel: ShortKernel, plane: Int, offset: Int, step: Int) {
        self.plane = plane
        self.offset = offset
        self.step = step
        self.kernel = kernel
        sampleCount = (kernel.starts.max() ?? 0) + kernel.taps
    }

    /// Stores this component's samples of one vertically filtered row into its column buffer.
    func storeRow(_ sums: UnsafePointer<UInt16>, row: Int, rowCount: Int, into columns: UnsafeMutablePointer<UInt8>) {
        var source = sums + offset, target = columns + row
        for _ in 0..<sampleCount {
            target.pointee = ShortKernel.byte(source.pointee)
            source += step
            target += rowCount
        }
    }

    /// Writes output column x to `target[x * rowCount ..< (x + 1) * rowCount]`.
    func horizontalPass(_ columns: UnsafePointer<UInt8>, rowCount: Int, into target: UnsafeMutablePointer<UInt8>) {
        var sums = [UInt16](repeating: 0, count: rowCount)
        let rounding = ShortKernel.rounding
        sums.withUnsafeMutableBufferPointer { sums in
            kernel.weights.withUnsafeBufferPointer { weights in
                let sums = sums.baseAddress!
                for x in kernel.starts.indices {
                    for y in 0..<rowCount { sums[y] = rounding }
                    for tap in 0..<kernel.taps {
                        let weight = weights[x &* kernel.taps &+ tap]
                        let column = columns + (kernel.starts[x] &+ tap) &* rowCount
                        for y in 0..<rowCount { sums[y] = sums[y] &+ UInt16(column[y]) &* weight }
                    }
                    let output = target + x &* rowCount
                    for y in 0..<rowCount { output[y] = ShortKernel.byte(sums[y]) }
                }
            }
        }
    }
}

/// The classify path's resize kernel with 7-bit weights that sum to exactly 128 for every
/// output: a byte times a weight, summed, then fits 16 bits, and 16-bit vector lanes do twice the
/// work of 32-bit ones (and multiply natively on the x86-64 baseline, which 32-bit lanes do not).
/// Rounding the weights costs at most one level of 255.
struct ShortKernel {
    static let precisionBits = 7
    static let rounding = UInt16(1 << (precisionBits - 1))
    let taps: Int
    let starts: [Int]
    let weights: [UInt16]

    init(_ kernel: Resampler.Kernel) {
        taps = kernel.taps
        starts = kernel.starts
        let shift = Resampler.precisionBits - ShortKernel.precisionBits
        var weights = kernel.weights.map { UInt16(max(0, ($0 + (1 << (shift - 1))) >> shift)) }
        for output in starts.indices {
            let range = (output * taps)..<(output * taps + taps)
            let total = weights[range].reduce(0, +)
            let largest = range.max { weights[$0] < weights[$1] }!
            weights[largest] = weights[largest] &+ UInt16(1 << ShortKernel.precisionBits) &- total
        }
        self.weights = weights
    }

    @inline(__always)
    static func byte(_ sum: UInt16) -> UInt8 { UInt8(truncatingIfNeeded: min(sum >> UInt16(precisionBits), 255)) }
}

/// BT.601 limited-range YCbCr (Y 16-235, Cb and Cr 16-240), what webcams send, to full-range RGB.
public enum YCbCr {
    /// The full-range RGB of one limited-range Y, Cb, Cr triplet.
    public static func rgb(y: UInt8, cb: UInt8, cr: UInt8) -> (UInt8, UInt8, UInt8) {
        // 8-bit fixed point of R = 1.164 (Y-16) + 1.596 (Cr-128), G = 1.164 (Y-16) - 0.391 (Cb-128)
        // - 0.813 (Cr-128), B = 1.164 (Y-16) + 2.018 (Cb-128).
        let luma = 298 * (Int32(y) - 16) + 128, blue = Int32(cb) - 128, red = Int32(cr) - 128
        return (clamp((luma + 409 * red) >> 8), clamp((luma - 100 * blue - 208 * red) >> 8), clamp((luma + 516 * blue) >> 8))
    }

    /// The inverse, as the camera fixture's feeder and most webcams compute it.
    public static func ycbcr(red: UInt8, green: UInt8, blue: UInt8) -> (UInt8, UInt8, UInt8) {
        let (r, g, b) = (Int32(red), Int32(green), Int32(blue))
        return (clamp(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16),
                clamp(((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128),
                clamp(((112 * r - 94 * g - 18 * b + 128) >> 8) + 128))
    }

    @inline(__always)
    static func clamp(_ value: Int32) -> UInt8 { value < 0 ? 0 : value > 255 ? 255 : UInt8(truncatingIfNeeded: value) }
}

extension YCbCr {
    /// A YUYV frame of `image` (even width), chroma averaged over each pixel pair: what a webcam
    /// would send for this picture. For benchmarks and tests that need camera frames.
    public static func yuyv(from image: RGBImage) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: image.width * image.height * 2)
        for y in 0..<image.height {
            for x in stride(from: 0, to: image.width - 1, by: 2) {
                let (r0, g0, b0) = image[x, y], (r1, g1, b1) = image[x + 1, y]
                func mean(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Int(a) + Int(b) + 1) / 2) }
                let (luma0, _, _) = ycbcr(red: r0, green: g0, blue: b0)
                let (luma1, _, _) = ycbcr(red: r1, green: g1, blue: b1)
                let (_, cb, cr) = ycbcr(red: mean(r0, r1), green: mean(g0, g1), blue: mean(b0, b1))
                let offset = (y * image.width + x) * 2
                output[offset] = luma0
                output[offset + 1] = cb
                output[offset + 2] = luma1
                output[offset + 3] = cr
            }
        }
        return output
    }
}
