import PlantLeafCore
import PlantLeafTestSupport
import Testing

/// NV12 as a camera would send it: a luma plane, then U V pairs for each 2x2 block.
private func nv12(from image: RGBImage) -> [UInt8] {
    var luma: [UInt8] = [], chroma: [UInt8] = []
    for y in 0..<image.height {
        for x in 0..<image.width { luma.append(YCbCr.ycbcr(red: image[x, y].0, green: image[x, y].1, blue: image[x, y].2).0) }
    }
    for y in stride(from: 0, to: image.height, by: 2) {
        for x in stride(from: 0, to: image.width, by: 2) {
            let (_, cb, cr) = YCbCr.ycbcr(red: image[x, y].0, green: image[x, y].1, blue: image[x, y].2)
            chroma += [cb, cr]
        }
    }
    return luma + chroma
}

@Suite struct FrameConverterTests {
    let output = FrameSize(width: 112, height: 112)
    let picture = TestImages.bands(width: 320, height: 240)

    func convert(_ format: FramePixelFormat, _ bytes: [UInt8], crop: CropMode, bytesPerLine: Int) throws -> RGBImage {
        let stream = StreamFormat(format: format, size: FrameSize(width: picture.width, height: picture.height), bytesPerLine: bytesPerLine)
        return try FrameConverter(stream: stream, crop: crop, outputSize: output).convert(bytes)
    }

    /// Every format: the centre crop sees only the green middle; the whole frame keeps the bands.
    @Test(arguments: FramePixelFormat.allCases)
    func cropAndResizeGeometry(format: FramePixelFormat) throws {
        let (bytes, line): ([UInt8], Int) = switch format {
        case .yuyv: (YCbCr.yuyv(from: picture), picture.width * 2)
        case .nv12: (nv12(from: picture), picture.width)
        case .rgb24: (picture.pixels, picture.width * 3)
        case .mjpeg: (TestImages.jpeg(picture.pixels, width: picture.width, height: picture.height, quality: 98), 0)
        }
        let centre = try convert(format, bytes, crop: .center, bytesPerLine: line)
        #expect(centre.width == 112 && centre.height == 112)
        for (x, y) in [(0, 0), (111, 0), (0, 111), (111, 111), (56, 56)] { expectClose(centre[x, y], (30, 200, 40), tolerance: 6) }
        let whole = try convert(format, bytes, crop: .none, bytesPerLine: line)
        expectClose(whole[2, 56], (220, 30, 30), tolerance: 8)
        expectClose(whole[56, 56], (30, 200, 40), tolerance: 6)
        expectClose(whole[109, 56], (30, 30, 220), tolerance: 8)
    }

    /// A YUV frame gives exactly what converting the cropped frame to RGB pixel by pixel, then
    /// resizing it as a file, gives: the same resizer for every source.
    @Test(arguments: [FramePixelFormat.yuyv, .nv12], [CropMode.center, .none])
    func yuvEqualsConvertThenResize(format: FramePixelFormat, crop: CropMode) throws {
        let photo = try ImageDecoder().decode(try FileReader.readAll(path: TestPaths.plantVillageImages()[0]))
        // Landscape, so the centre crop cuts columns.
        let picture = Resampler.resize(photo, width: 320, height: 240)
        let frame = format == .yuyv ? YCbCr.yuyv(from: picture) : nv12(from: picture)
        let region = crop.region(width: 320, height: 240, alignment: 2)
        var rgb: [UInt8] = []
        for y in region.y..<(region.y + region.height) {
            for x in region.x..<(region.x + region.width) {
                // Index arithmetic in separate Int statements: Swift 6.0's type checker gives up
                // on the whole tuple expression under emulation.
                let pair: Int = x / 2 * 2
                let luma: UInt8, cb: UInt8, cr: UInt8
                if format == .yuyv {
                    let row: Int = y * 320
                    luma = frame[(row + x) * 2]
                    cb = frame[(row + pair) * 2 + 1]
                    cr = frame[(row + pair) * 2 + 3]
                } else {
                    let chroma: Int = 320 * 240 + (y / 2) * 320 + pair
                    luma = frame[y * 320 + x]
                    cb = frame[chroma]
                    cr = frame[chroma + 1]
                }
                let (r, g, b) = YCbCr.rgb(y: luma, cb: cb, cr: cr)
                rgb += [r, g, b]
            }
        }
        let reference = Resampler.resize(RGBImage(width: region.width, height: region.height, pixels: rgb), width: 224, height: 224)
        let stream = StreamFormat(format: format, size: FrameSize(width: 320, height: 240), bytesPerLine: format == .yuyv ? 640 : 320)
        let converted = try FrameConverter(stream: stream, crop: crop, outputSize: FrameSize(width: 224, height: 224)).convert(frame)
        #expect(converted == reference)
    }

    @Test func shortFrameIsAnErrorNotACrash() {
        #expect(throws: FrameError.tooShort(bytes: 100, expected: 320 * 2 * 240)) {
            try convert(.yuyv, [UInt8](repeating: 16, count: 100), crop: .center, bytesPerLine: 640)
        }
    }
}
