import PlantLeafCore
import PlantLeafCamera
import PlantLeafReport
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
    let picture = bands(width: 320, height: 240)

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

    /// The fused YUV path gives what converting the whole frame to RGB and then resizing does.
    @Test func yuyvMatchesConvertThenResize() throws {
        let photo = try ImageDecoder().decode(try FileReader.readAll(path: TestPaths.plantVillageImages()[0]))
        let frame = YCbCr.yuyv(from: photo)
        var rgb: [UInt8] = []
        for index in stride(from: 0, to: frame.count, by: 4) {
            for luma in [frame[index], frame[index + 2]] {
                let (r, g, b) = YCbCr.rgb(y: luma, cb: frame[index + 1], cr: frame[index + 3])
                rgb += [r, g, b]
            }
        }
        let reference = Resampler.resize(RGBImage(width: photo.width, height: photo.height, pixels: rgb), width: 224, height: 224)
        let stream = StreamFormat(format: .yuyv, size: FrameSize(width: photo.width, height: photo.height), bytesPerLine: photo.width * 2)
        let fused = try FrameConverter(stream: stream, crop: .center, outputSize: FrameSize(width: 224, height: 224)).convert(frame)
        let differences = zip(fused.pixels, reference.pixels).map { abs(Int($0) - Int($1)) }
        #expect(differences.max()! <= 12)
        #expect(Double(differences.reduce(0, +)) / Double(differences.count) < 1.0)
    }

    @Test func shortFrameIsAnErrorNotACrash() {
        #expect(throws: FrameError.tooShort(bytes: 100, expected: 320 * 2 * 240)) {
            try convert(.yuyv, [UInt8](repeating: 16, count: 100), crop: .center, bytesPerLine: 640)
        }
    }
}
