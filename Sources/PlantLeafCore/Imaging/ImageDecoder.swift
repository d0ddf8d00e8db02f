import CJPEG
import CPNG
import PlantLeafSupport

/// Where a decoder puts an image, a row at a time, so no caller needs the whole image in memory.
public protocol DecodedRowSink: AnyObject {
    /// Called once before any row with the decoded size (as stored) and how the stored image must
    /// be turned to look upright. Returning false stops the decode (`ImageError.cancelled`).
    func begin(width: Int, height: Int, orientation: EXIFOrientation) -> Bool
    /// Row `y` of the stored image: width x 3 bytes of RGB, valid only during the call.
    func row(_ pixels: UnsafePointer<UInt8>, y: Int)
}

/// Decodes PNG (libpng) and JPEG (libjpeg-turbo) bytes to RGB rows, within a budget per image.
public struct ImageDecoder: Sendable {
    /// Pixels a file may declare before decoding is refused (decompression bombs): far above any
    /// camera, far below what would exhaust memory.
    public static let defaultPixelLimit = 120_000_000

    /// What one image may cost beyond its pixel count. Every limit a file hits is named in its error.
    public struct Budget: Sendable, Equatable {
        /// libjpeg's whole-image buffers (`max_memory_to_use`): a progressive or multi-scan JPEG
        /// keeps all its DCT coefficients, about 3 bytes a pixel at 4:2:0, so 96 MiB reads
        /// progressive photos up to about 32 megapixels (16 at 4:4:4).
        public var jpegMemoryBytes = 96 << 20
        /// Progressive JPEG work: each scan costs the image's pixels plus 65536, summed over the
        /// scans. 500 million is 40 scans of a 12 MP photo (real encoders write about 10), about
        /// a second of decoding here.
        public var progressiveScanWork = 500_000_000
        /// Any PNG chunk but IDAT is read whole: none may declare more (text, ICC profiles and
        /// EXIF are far smaller).
        public var pngChunkBytes = 8 << 20
        /// Text and unknown PNG chunks kept per image (`png_set_chunk_cache_max`).
        public var pngCachedChunks: UInt32 = 100
        /// PNG width and height each (`png_set_user_limits`).
        public var pngSide: UInt32 = 100_000
        /// An interlaced PNG is complete only after its last pass, so it is held whole, up to this.
        public var pngInterlacedImageBytes = 64 << 20

        /// The default budget, each limit as documented on its property.
        public init() {}
    }

    public var pixelLimit: Int
    public var budget: Budget
    /// JPEGs are decoded at the smallest DCT scale of 1/8, 1/4, 1/2 and 1/1 that still covers
    /// this size in both directions; nil decodes at full size.
    public var minimumSize: (width: Int, height: Int)?
    /// Refuse JPEGs with any damage libjpeg could paper over (camera frames: a damaged frame is
    /// skipped, the next one is a few milliseconds away); otherwise only missing data is refused.
    public var strict: Bool

    /// A decoder within `pixelLimit` pixels and `budget`; see the properties for `minimumSize`
    /// and `strict`.
    public init(pixelLimit: Int = ImageDecoder.defaultPixelLimit, budget: Budget = Budget(),
                minimumSize: (width: Int, height: Int)? = nil, strict: Bool = false) {
        self.pixelLimit = pixelLimit
        self.budget = budget
        self.minimumSize = minimumSize
        self.strict = strict
    }

    /// The whole image, upright.
    ///
    /// - Throws: `ImageError`, as `decode(_:into:)` does.
    public func decode(_ bytes: [UInt8]) throws(ImageError) -> RGBImage {
        let collector = ImageCollector()
        try decode(bytes, into: collector)
        return collector.orientation.apply(to: collector.image)
    }

    /// Decodes into `sink` row by row; returns the format and, for a JPEG, its estimated quality.
    /// On an error the rows already given to the sink are to be discarded.
    ///
    /// - Throws: `ImageError`: empty or unknown bytes, a size over the pixel limit, data cut
    ///   short or missing, corrupt or unsupported files, a budget exceeded, or a sink that stopped.
    @discardableResult
    public func decode(_ bytes: [UInt8], into sink: DecodedRowSink) throws(ImageError) -> DecodedFile {
        guard !bytes.isEmpty else { throw .empty }
        let box = SinkBox(sink)
        let context = Unmanaged.passUnretained(box).toOpaque()
        defer { withExtendedLifetime(box) {} }
        switch ImageFormat.detect(bytes) {
        case .png:
            try decodePNG(bytes, context: context)
            return DecodedFile(format: .png)
        case .jpeg:
            return DecodedFile(format: .jpeg, jpegQuality: try decodeJPEG(bytes, context: context))
        case nil:
            throw .unknownFormat(firstBytes: Array(bytes.prefix(FileKind.signatureBytes)))
        }
    }

    private func decodePNG(_ bytes: [UInt8], context: UnsafeMutableRawPointer) throws(ImageError) {
        var limits = PLPNGLimits(max_pixels: UInt64(pixelLimit), max_side: budget.pngSide, max_cached_chunks: budget.pngCachedChunks,
                                 max_chunk_bytes: UInt64(budget.pngChunkBytes), max_image_bytes: UInt64(budget.pngInterlacedImageBytes))
        var sink = PLPNGRowSink(context: context, begin: { context, width, height in
            SinkBox.from(context).sink.begin(width: Int(width), height: Int(height), orientation: .upright) ? 0 : 1
        }, row: { context, pixels, y in
            SinkBox.from(context).sink.row(pixels!, y: Int(y))
        })
        var result = PLPNGResult()
        let status = pl_png_decode(bytes, bytes.count, &limits, &sink, &result)
        let detail = pngDetail(result)
        switch Int32(status) {
        case Int32(PL_PNG_OK): return
        case Int32(PL_PNG_TOO_LARGE):
            throw .tooLarge(format: .png, width: Int(result.width), height: Int(result.height), limit: pixelLimit)
        case Int32(PL_PNG_NO_MEMORY): throw .outOfMemory(format: .png)
        case Int32(PL_PNG_TRUNCATED): throw .truncated(format: .png, detail: detail)
        case Int32(PL_PNG_OVER_BUDGET): throw .overBudget(format: .png, detail: detail)
        case Int32(PL_PNG_CANCELLED): throw .cancelled
        default:
            // libpng's own checks of the user limits say "exceeds user limit".
            if detail.contains("user limit") { throw .overBudget(format: .png, detail: "\(detail) (\(budget.pngSide) pixels)") }
            throw .corrupt(format: .png, detail: detail)
        }
    }

    /// What a failed PNG decode met, in words, from the facts the shim reports.
    private func pngDetail(_ result: PLPNGResult) -> String {
        switch Int32(result.fact) {
        case Int32(PL_PNG_FACT_SIGNATURE): return "not a PNG signature"
        case Int32(PL_PNG_FACT_CHUNK_SIZE):
            // The type as the file has it: anything but a letter is shown as "?".
            let name = withUnsafeBytes(of: result.chunk_type) { type in
                String(decoding: type.map { (UInt8(ascii: "A")...UInt8(ascii: "z")).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
            }
            return "\(name) chunk declares \(result.chunk_length) bytes, above the \(budget.pngChunkBytes)-byte chunk budget"
        case Int32(PL_PNG_FACT_INTERLACED_IMAGE):
            let bytes = UInt64(result.width) &* UInt64(result.height) &* 3
            return "interlaced \(result.width)x\(result.height) image needs \(bytes >> 20) MiB at once, "
                + "above the \(budget.pngInterlacedImageBytes >> 20) MiB image budget"
        case Int32(PL_PNG_FACT_ROW_LAYOUT): return "unexpected row layout after transforms"
        case Int32(PL_PNG_FACT_END_OF_DATA): return "file is truncated"
        default: return stringFromCField(result.libpng_message)
        }
    }

    /// Returns the file's estimated quality (nil when it has no luminance table).
    private func decodeJPEG(_ bytes: [UInt8], context: UnsafeMutableRawPointer) throws(ImageError) -> Int? {
        let minimum = minimumSize ?? (0, 0)
        // The EXIF rotation may swap the axes after decoding, so cover the larger side both ways.
        SinkBox.from(context).jpegMinimumSide = max(minimum.width, minimum.height)
        var limits = PLJPEGLimits(max_pixels: UInt64(pixelLimit), max_memory: UInt64(budget.jpegMemoryBytes),
                                  max_scan_work: UInt64(budget.progressiveScanWork))
        var sink = PLJPEGRowSink(context: context, scale: { context, width, height in
            let side = SinkBox.from(context).jpegMinimumSide
            return ImageDecoder.jpegScaleEighths(width: Int(width), height: Int(height), minimumWidth: side, minimumHeight: side)
        }, begin: { context, width, height, components, adobeMarker, exif, exifSize in
            let payload = exif.map { Array(UnsafeBufferPointer(start: $0, count: exifSize)) } ?? []
            let orientation = EXIFOrientation.read(fromAPP1: payload)
            let box = SinkBox.from(context)
            box.startJPEG(width: Int(width), components: Int(components), adobeMarker: adobeMarker != 0)
            return box.sink.begin(width: Int(width), height: Int(height), orientation: orientation) ? 0 : 1
        }, row: { context, samples, y in
            SinkBox.from(context).jpegRow(samples!, y: Int(y))
        })
        var result = PLJPEGResult()
        let status = pl_jpeg_decode(bytes, bytes.count, &limits, strict ? 1 : 0, &sink, &result)
        let detail = jpegDetail(result)
        switch Int32(status) {
        case Int32(PL_JPEG_OK): return result.estimated_quality > 0 ? Int(result.estimated_quality) : nil
        case Int32(PL_JPEG_TOO_LARGE):
            throw .tooLarge(format: .jpeg, width: Int(result.source_width), height: Int(result.source_height), limit: pixelLimit)
        case Int32(PL_JPEG_NO_MEMORY): throw .outOfMemory(format: .jpeg)
        case Int32(PL_JPEG_TRUNCATED): throw .truncated(format: .jpeg, detail: detail)
        case Int32(PL_JPEG_MISSING_DATA): throw .missingData(format: .jpeg, detail: detail)
        case Int32(PL_JPEG_UNSUPPORTED): throw .unsupported(format: .jpeg, detail: detail)
        case Int32(PL_JPEG_OVER_BUDGET): throw .overBudget(format: .jpeg, detail: detail)
        case Int32(PL_JPEG_CANCELLED): throw .cancelled
        default: throw .corrupt(format: .jpeg, detail: detail)
        }
    }

    /// What a failed JPEG decode met, in words, from the facts the shim reports.
    private func jpegDetail(_ result: PLJPEGResult) -> String {
        let libjpeg = stringFromCField(result.libjpeg_message)
        switch Int32(result.fact) {
        case Int32(PL_JPEG_FACT_SCAN_CUT_SHORT):
            return "a scan's entropy-coded data stops before its last block (\(libjpeg))"
        case Int32(PL_JPEG_FACT_SAMPLE_PRECISION):
            return "\(result.sample_bits)-bit samples (only 8-bit JPEGs are)"
        case Int32(PL_JPEG_FACT_FRAME_MARKER):
            let process = Int(result.frame_marker) - 0xC0  // the SOFn marker's n
            let kind = process & 3 == 3 ? "lossless" : process & 3 != 0 && process > 4 ? "hierarchical" : "this coding process"
            return "\(kind) JPEG (SOF\(process))"
        case Int32(PL_JPEG_FACT_MEMORY):
            return "needs more than the \(budget.jpegMemoryBytes >> 20) MiB decoder memory budget (\(libjpeg))"
        case Int32(PL_JPEG_FACT_SCAN_WORK):
            return "\(result.scans) progressive scans of \(result.source_width)x\(result.source_height) pixels "
                + "exceed the work budget (\(budget.progressiveScanWork) pixel-scans)"
        case Int32(PL_JPEG_FACT_UNCODED_COEFFICIENTS):
            return "progressive scans never sent \(result.uncoded_coefficients) of the 64 coefficients of component "
                + "\(result.component)\(result.dc_uncoded != 0 ? ", its DC among them" : "")"
        default:
            return libjpeg
        }
    }

    /// The smallest of the DCT scales 1/8, 1/4, 1/2 and 1/1 that still covers the minimum size,
    /// in eighths; 8 (full size) when there is no minimum. Only these four have SIMD IDCTs in
    /// libjpeg-turbo (x86 and NEON): the others run scalar code that costs more than a full-size
    /// decode (measured on a 256x256 leaf: 7/8 0.61 ms against 8/8 0.37 ms; on 4000x3000: 3/8
    /// 31 ms against 4/8 26 ms). The resampler does the rest of the way.
    static func jpegScaleEighths(width: Int, height: Int, minimumWidth: Int, minimumHeight: Int) -> UInt32 {
        guard minimumWidth > 0, minimumHeight > 0 else { return 8 }
        for eighths in [1, 2, 4] where (width * eighths + 7) / 8 >= minimumWidth && (height * eighths + 7) / 8 >= minimumHeight {
            return UInt32(eighths)
        }
        return 8
    }
}

/// Carries the sink through the C shims' `void *context`, with what a JPEG decode needs between
/// the shim's calls.
private final class SinkBox {
    let sink: DecodedRowSink
    /// The side a JPEG's DCT scale must still cover both ways (0: full size).
    var jpegMinimumSide = 0
    /// The JPEG's samples a pixel: 3 (RGB), or 4 (CMYK, turned to RGB here).
    private var jpegComponents = 3
    /// Whether the CMYK samples are stored inverted, as Adobe writes them (255 = no ink).
    private var jpegInvertedInk = false
    private var rgbRow: [UInt8] = []

    init(_ sink: DecodedRowSink) { self.sink = sink }
    static func from(_ context: UnsafeMutableRawPointer?) -> SinkBox { Unmanaged<SinkBox>.fromOpaque(context!).takeUnretainedValue() }

    /// Before a JPEG's first row: how its rows are laid out. A file with an Adobe marker stores
    /// inverted ink; plain CMYK stores ink directly.
    func startJPEG(width: Int, components: Int, adobeMarker: Bool) {
        jpegComponents = components
        jpegInvertedInk = adobeMarker
        rgbRow = components == 4 ? [UInt8](repeating: 0, count: width * 3) : []
    }

    /// Passes a JPEG row on as RGB: from CMYK, each channel's brightness times the black's, in
    /// 255ths, rounded.
    func jpegRow(_ samples: UnsafePointer<UInt8>, y: Int) {
        guard jpegComponents == 4 else { return sink.row(samples, y: y) }
        let inverted = jpegInvertedInk
        // As stored inverted: 255 is no ink, which is the channel's full brightness.
        func brightness(_ sample: UInt8) -> UInt32 { inverted ? UInt32(sample) : 255 - UInt32(sample) }
        rgbRow.withUnsafeMutableBufferPointer { rgb in
            for x in 0..<rgb.count / 3 {
                let black = brightness(samples[4 * x + 3])
                for channel in 0..<3 {
                    rgb[3 * x + channel] = UInt8((brightness(samples[4 * x + channel]) * black + 127) / 255)
                }
            }
            sink.row(rgb.baseAddress!, y: y)
        }
    }
}

/// Keeps every row: the whole decoded image, as stored, and its orientation.
final class ImageCollector: DecodedRowSink {
    private(set) var image = RGBImage(width: 0, height: 0, pixels: [])
    private(set) var orientation = EXIFOrientation.upright

    func begin(width: Int, height: Int, orientation: EXIFOrientation) -> Bool {
        image = RGBImage(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 3))
        self.orientation = orientation
        return true
    }

    func row(_ pixels: UnsafePointer<UInt8>, y: Int) {
        let rowBytes = image.width * 3
        image.pixels.withUnsafeMutableBufferPointer { target in
            (target.baseAddress! + y * rowBytes).update(from: pixels, count: rowBytes)
        }
    }
}

/// Takes a decoder's rows and keeps nothing: the decoder's own cost, the floor benchmarks
/// measure the pipeline against.
package final class DiscardedRows: DecodedRowSink {
    package init() {}
    package func begin(width: Int, height: Int, orientation: EXIFOrientation) -> Bool { true }
    package func row(_ pixels: UnsafePointer<UInt8>, y: Int) {}
}
