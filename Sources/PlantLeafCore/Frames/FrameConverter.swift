import CResample

/// Turns captured frames into the model's RGB input: crop, then resize to the model's size.
///
/// Every frame goes through the classify path's `RowResizer`, the resize files get, so a frame
/// and a file of the same picture give the same pixels. Raw frames have only the rows and
/// columns the crop keeps converted, a row at a time, to RGB (YUV chroma taken from the sample
/// each pixel shares, by the C kernels of the resizer's set; RGB24 rows are read in place). MJPEG frames go through the one JPEG
/// decoder, in strict mode (a damaged frame is an error), DCT-scaled to the smallest fast scale
/// that still covers the model input, its rows streaming into the resizer. The resizer keeps its
/// plan and buffers while the frames keep their size.
public final class FrameConverter {
    public let stream: StreamFormat
    public let crop: CropMode
    public let outputSize: FrameSize
    let decoder: ImageDecoder
    private let resizer: RowResizer
    /// The part of a raw frame the model sees; YUV crops never split a pair sharing chroma.
    private let region: CropRegion
    /// One row of the region in RGB, for YUV frames.
    private var rgbRow: [UInt8]
    /// How many rows ahead of the one converted a raw frame's bytes are asked into the cache. The
    /// camera's DMA wrote the frame, or the model ran since it was last read, so its rows are not
    /// in the cache: the conversion waited on their loads (a 640x480 YUYV frame took 0.02 ms
    /// less with this).
    private static let rowsAhead = 4

    /// A converter for frames of `stream` to `outputSize`, cropped with `crop`.
    public convenience init(stream: StreamFormat, crop: CropMode, outputSize: FrameSize) {
        self.init(stream: stream, crop: crop, outputSize: outputSize, kernels: .preferred)
    }

    /// A converter whose YUV conversion and resize run `kernels` (one of `ResampleKernels.available`).
    package init(stream: StreamFormat, crop: CropMode, outputSize: FrameSize, kernels: ResampleKernels) {
        self.stream = stream
        self.crop = crop
        self.outputSize = outputSize
        decoder = ImageDecoder(minimumSize: (outputSize.width, outputSize.height), strict: true)
        // MJPEG frames carry their own size, so the resizer crops them as they come; raw frames
        // are cropped here, before conversion.
        let facts = stream.format.facts
        resizer = RowResizer(width: outputSize.width, height: outputSize.height, crop: facts.conversion == .jpeg ? crop : .none,
                             kernels: kernels)
        region = crop.region(width: stream.size.width, height: stream.size.height, alignment: facts.chromaAlignment)
        let convertsRows = facts.conversion == .packedYCbCr422 || facts.conversion == .semiPlanarYCbCr420
        rgbRow = [UInt8](repeating: 0, count: convertsRows ? region.width * 3 : 0)
    }

    /// The model-input image for one frame (`bytes` as the driver filled the buffer).
    ///
    /// - Throws: `FrameError.tooShort` for a raw frame with fewer bytes than its format needs,
    ///   `.corruptJPEG` for an MJPEG frame the decoder refuses.
    public func convert(_ bytes: [UInt8]) throws(FrameError) -> RGBImage {
        let conversion = stream.format.facts.conversion, bytesPerPixel = stream.format.facts.bytesPerPixel
        if conversion == .jpeg {
            do {
                try decoder.decode(bytes, into: resizer)
            } catch {
                throw .corruptJPEG(error)
            }
            return resizer.finish()
        }
        let expected = stream.format.minimumBytes(height: stream.size.height, bytesPerLine: stream.bytesPerLine)
        guard bytes.count >= expected else { throw .tooShort(bytes: bytes.count, expected: expected) }
        _ = resizer.begin(width: region.width, height: region.height, orientation: .upright)
        let line = stream.bytesPerLine, region = region
        let chromaPlane = line * stream.size.height
        let kernels = resizer.kernels
        bytes.withUnsafeBufferPointer { frame in
            rgbRow.withUnsafeMutableBufferPointer { rgb in
                let frame = frame.baseAddress!, rgb = rgb.baseAddress!
                for row in 0..<region.height {
                    let y = region.y + row
                    if row + Self.rowsAhead < region.height {
                        let ahead = y + Self.rowsAhead
                        frame_prefetch(frame + ahead * line + region.x * bytesPerPixel, region.width * bytesPerPixel)
                        if conversion == .semiPlanarYCbCr420 {
                            frame_prefetch(frame + chromaPlane + ahead / 2 * line + region.x, region.width)
                        }
                    }
                    switch conversion {
                    case .rgb:
                        resizer.row(frame + y * line + region.x * 3, y: row)
                        continue
                    case .packedYCbCr422:
                        YCbCr.rgb(yuyv: frame + y * line + region.x * 2, pixels: region.width, into: rgb, kernels: kernels)
                    case .semiPlanarYCbCr420:
                        YCbCr.rgb(luma: frame + y * line + region.x, chroma: frame + chromaPlane + y / 2 * line + region.x,
                                  pixels: region.width, into: rgb, kernels: kernels)
                    case .jpeg:
                        preconditionFailure("JPEG frames take the decoder's path (returned above)")
                    }
                    resizer.row(rgb, y: row)
                }
            }
        }
        return resizer.finish()
    }
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

    /// `pixels` (even) RGB pixels from a YUYV row (Y0 U Y1 V: two pixels sharing U and V), each
    /// exactly `rgb(y:cb:cr:)`, with the inner loops of `kernels`.
    package static func rgb(yuyv: UnsafePointer<UInt8>, pixels: Int, into target: UnsafeMutablePointer<UInt8>,
                            kernels: ResampleKernels) {
        switch kernels {
        #if arch(x86_64)
        case .sse41: yuv_yuyv_rgb_sse41(yuyv, pixels, target)
        case .avx2, .avx512: yuv_yuyv_rgb_avx2(yuyv, pixels, target)
        #endif
        default: yuv_yuyv_rgb_portable(yuyv, pixels, target)
        }
    }

    /// `pixels` RGB pixels from an NV12 luma row and the U V pairs its 2x2 blocks share, each
    /// exactly `rgb(y:cb:cr:)`, with the inner loops of `kernels`.
    package static func rgb(luma: UnsafePointer<UInt8>, chroma: UnsafePointer<UInt8>, pixels: Int,
                            into target: UnsafeMutablePointer<UInt8>, kernels: ResampleKernels) {
        switch kernels {
        #if arch(x86_64)
        case .sse41: yuv_nv12_rgb_sse41(luma, chroma, pixels, target)
        case .avx2, .avx512: yuv_nv12_rgb_avx2(luma, chroma, pixels, target)
        #endif
        default: yuv_nv12_rgb_portable(luma, chroma, pixels, target)
        }
    }
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
