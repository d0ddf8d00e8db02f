/// Why one captured frame could not be turned into model input. The frame is skipped and counted.
public enum FrameError: Error, Equatable, CustomStringConvertible {
    case tooShort(bytes: Int, expected: Int)
    case corruptJPEG(ImageError)

    public var description: String {
        switch self {
        case .tooShort(let bytes, let expected): return "frame has \(bytes) bytes, \(expected) expected"
        case .corruptJPEG(let error): return "MJPEG frame: \(error)"
        }
    }
}

/// Turns captured frames into the model's RGB input: crop, then resize to the model's size.
///
/// Raw YUV frames are resized in YUV (luma at full resolution, chroma at its own) and only the
/// output pixels are converted to RGB, so no full-size RGB frame is ever made; the resize is the
/// same antialiased bilinear filter as the classify path. MJPEG frames go through the one JPEG
/// decoder, in strict mode (a damaged frame is an error) and DCT-scaled to the smallest size that
/// still covers the model input.
public final class FrameConverter {
    public let stream: StreamFormat
    public let crop: CropMode
    public let outputSize: FrameSize
    let decoder: ImageDecoder
    private let region: CropRegion
    private let planes: [PlaneResize]
    private let components: [ComponentResize]

    public init(stream: StreamFormat, crop: CropMode, outputSize: FrameSize) {
        self.stream = stream
        self.crop = crop
        self.outputSize = outputSize
        decoder = ImageDecoder(minimumSize: (outputSize.width, outputSize.height), strict: true)
        let size = stream.size, line = stream.bytesPerLine
        // YUYV shares chroma across 2 pixels of a row, NV12 across 2x2.
        region = crop.region(width: size.width, height: size.height, alignment: stream.format == .rgb24 || stream.format == .mjpeg ? 1 : 2)
        let (cropWidth, cropHeight) = (region.width, region.height)
        func kernel(_ input: Int, _ output: Int) -> Resampler.Kernel { Resampler.Kernel(inputSize: input, outputSize: output) }
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
            planes = []
            components = []
        }
    }

    /// The model-input image for one frame (`bytes` as the driver filled the buffer).
    public func convert(_ bytes: [UInt8]) throws(FrameError) -> RGBImage {
        if stream.format == .mjpeg {
            let image: RGBImage
            do {
                image = try decoder.decode(bytes)
            } catch {
                throw .corruptJPEG(error)
            }
            let cropped = image.cropped(to: crop.region(width: image.width, height: image.height))
            return Resampler.resize(cropped, width: outputSize.width, height: outputSize.height)
        }
        let expected = stream.format.minimumBytes(width: stream.size.width, height: stream.size.height, bytesPerLine: stream.bytesPerLine)
        guard bytes.count >= expected else { throw .tooShort(bytes: bytes.count, expected: expected) }
        let (width, height) = (outputSize.width, outputSize.height)
        var output = [UInt8](repeating: 0, count: width * height * 3)
        bytes.withUnsafeBufferPointer { source in
            let resizedPlanes = planes.map { $0.verticalPass(source.baseAddress!) }
            output.withUnsafeMutableBufferPointer { target in
                for (channel, component) in components.enumerated() {
                    resizedPlanes[component.plane].withUnsafeBufferPointer { rows in
                        component.horizontalPass(rows.baseAddress!, rowBytes: planes[component.plane].rowBytes,
                                                 rowCount: height, into: target.baseAddress! + channel)
                    }
                }
                if stream.format != .rgb24 { YCbCr.convertToRGBInPlace(target) }
            }
        }
        return RGBImage(width: width, height: height, pixels: output)
    }
}

/// The vertical half of the resize over one plane's crop: all bytes of a row filtered alike, so
/// it works on interleaved samples without knowing their layout.
struct PlaneResize {
    let vertical: Resampler.Kernel
    let planeOffset: Int
    let firstRow: Int
    let rowStart: Int
    let rowBytes: Int
    let stride: Int

    func verticalPass(_ source: UnsafePointer<UInt8>) -> [UInt8] {
        let outputRows = vertical.starts.count
        var output = [UInt8](repeating: 0, count: outputRows * rowBytes)
        var sums = [Int32](repeating: 0, count: rowBytes)
        let base = source + planeOffset + rowStart
        let rounding = Int32(1 << (Resampler.precisionBits - 1))
        output.withUnsafeMutableBufferPointer { target in
            sums.withUnsafeMutableBufferPointer { sums in
                vertical.weights.withUnsafeBufferPointer { weights in
                    for y in 0..<outputRows {
                        for index in 0..<rowBytes { sums[index] = rounding }
                        let first = vertical.starts[y]
                        for tap in 0..<vertical.counts[y] {
                            let weight = weights[y * vertical.taps + tap]
                            let row = base + (firstRow + first + tap) * stride
                            for index in 0..<rowBytes { sums[index] &+= Int32(row[index]) &* weight }
                        }
                        let targetRow = y * rowBytes
                        for index in 0..<rowBytes { target[targetRow + index] = Resampler.clampToByte(sums[index]) }
                    }
                }
            }
        }
        return output
    }
}

/// The horizontal half for one component: samples `step` bytes apart from `offset`, written to
/// every third byte of the output (one channel of interleaved 3-channel pixels).
struct ComponentResize {
    let horizontal: Resampler.Kernel
    let plane: Int
    let offset: Int
    let step: Int

    func horizontalPass(_ rows: UnsafePointer<UInt8>, rowBytes: Int, rowCount: Int, into target: UnsafeMutablePointer<UInt8>) {
        let width = horizontal.starts.count
        let rounding = Int32(1 << (Resampler.precisionBits - 1))
        horizontal.weights.withUnsafeBufferPointer { weights in
            horizontal.starts.withUnsafeBufferPointer { starts in
                horizontal.counts.withUnsafeBufferPointer { counts in
                    for y in 0..<rowCount {
                        let row = rows + y * rowBytes + offset
                        let output = target + y * width * 3
                        for x in 0..<width {
                            var sum = rounding
                            let first = row + starts[x] * step
                            let weightBase = x * horizontal.taps
                            for tap in 0..<counts[x] { sum &+= Int32(first[tap * step]) &* weights[weightBase + tap] }
                            output[x * 3] = Resampler.clampToByte(sum)
                        }
                    }
                }
            }
        }
    }
}

/// BT.601 limited-range YCbCr (Y 16-235, Cb and Cr 16-240), what webcams send, to full-range RGB.
public enum YCbCr {
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

    static func convertToRGBInPlace(_ pixels: UnsafeMutableBufferPointer<UInt8>) {
        var index = 0
        while index + 2 < pixels.count {
            (pixels[index], pixels[index + 1], pixels[index + 2]) = rgb(y: pixels[index], cb: pixels[index + 1], cr: pixels[index + 2])
            index += 3
        }
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
