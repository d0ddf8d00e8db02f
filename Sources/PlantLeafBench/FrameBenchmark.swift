import PlantLeafCore
import PlantLeafSupport
/// Times the camera's frame → model-input path on recorded frames against the model run, side
/// by side in one process: how much a frame adds to inference.
public enum FrameBenchmark {
    /// The times of every iteration, per path, in milliseconds.
    public struct Result: Sendable {
        public var frameSize: FrameSize
        public var mjpegBytes: Int
        /// Milliseconds per iteration: YUYV frame to filled input tensor, the same for MJPEG, and invoke.
        public var yuyv: [Double]
        public var mjpeg: [Double]
        public var invoke: [Double]
        /// The floor for MJPEG: libjpeg-turbo alone decoding the frame at the same DCT scale.
        public var mjpegDecoder: [Double]
    }

    /// Makes a `size` YUYV frame and MJPEG frame of `image` (stretched to that size, the MJPEG
    /// without Huffman tables as UVC cameras send it), then converts each and runs the model
    /// `iterations` times, interleaved.
    public static func run(classifier: Classifier, image: RGBImage, size: FrameSize, crop: CropMode,
                           iterations: Int) throws(InputError<FrameError>) -> Result {
        let picture = Resampler.resize(image, width: size.width, height: size.height)
        let yuyvFrame = YCbCr.yuyv(from: picture)
        let mjpegFrame: [UInt8]
        do {
            mjpegFrame = strippingHuffmanTables(try JPEGEncoder.encode(picture))
        } catch {
            throw .unusable(.corruptJPEG(error))
        }
        func converter(_ format: FramePixelFormat) -> FrameConverter {
            let stream = StreamFormat(format: format, size: size, bytesPerLine: format == .yuyv ? size.width * 2 : 0,
                                      imageBytes: 0, framesPerSecond: nil)
            return classifier.frameConverter(for: stream, crop: crop)
        }
        let yuyvConverter = converter(.yuyv), mjpegConverter = converter(.mjpeg)
        var result = Result(frameSize: size, mjpegBytes: mjpegFrame.count, yuyv: [], mjpeg: [], invoke: [], mjpegDecoder: [])
        let input = classifier.inputSize
        let floorDecoder = ImageDecoder(minimumSize: (input.width, input.height), strict: true)
        for _ in 0..<iterations {
            // A frame that does not convert fails the benchmark: its time would measure nothing.
            result.yuyv.append(try classifier.prepareInput(frame: yuyvFrame, with: yuyvConverter).input.timings.prepare)
            result.mjpeg.append(try classifier.prepareInput(frame: mjpegFrame, with: mjpegConverter).input.timings.prepare)
            do {
                result.invoke.append(try classifier.run().timings.invoke)
            } catch {
                throw .runtime(error)
            }
            let floorStart = MonotonicClock.nanoseconds()
            do {
                try floorDecoder.decode(mjpegFrame, into: DiscardedRows())
            } catch {
                throw .unusable(.corruptJPEG(error))
            }
            result.mjpegDecoder.append(MonotonicClock.milliseconds(since: floorStart))
        }
        return result
    }

    /// The JPEG without its DHT (Huffman table) segments. Valid only for JPEGs coded with the
    /// standard tables (baseline, not optimised), which decoders then assume, as UVC MJPEG does.
    public static func strippingHuffmanTables(_ jpeg: [UInt8]) -> [UInt8] {
        var output: [UInt8] = Array(jpeg.prefix(2))
        var offset = 2
        // Marker segments up to the start of scan; the entropy-coded data after SOS is copied whole.
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
            let marker = jpeg[offset + 1]
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            if marker == 0xDA { break }
            if marker != 0xC4 { output.append(contentsOf: jpeg[offset..<min(offset + 2 + length, jpeg.count)]) }
            offset += 2 + length
        }
        output.append(contentsOf: jpeg[min(offset, jpeg.count)...])
        return output
    }
}
