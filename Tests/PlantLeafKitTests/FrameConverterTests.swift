import PlantLeafKit
import PlantLeafTestSupport
import Testing

/// A width x height picture: a red band on the left, a blue band on the right, both as wide as
/// the part a centre crop cuts off, and green between.
private func bands(width: Int, height: Int) -> RGBImage {
    let side = (width - height) / 2
    var pixels: [UInt8] = []
    for _ in 0..<height {
        for x in 0..<width {
            pixels += x < side ? [220, 30, 30] : x >= width - side ? [30, 30, 220] : [30, 200, 40]
        }
    }
    return RGBImage(width: width, height: height, pixels: pixels)
}

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

private func expectClose(_ pixel: (UInt8, UInt8, UInt8), _ expected: (Int, Int, Int), tolerance: Int = 3,
                         sourceLocation: SourceLocation = #_sourceLocation) {
    let ok = abs(Int(pixel.0) - expected.0) <= tolerance && abs(Int(pixel.1) - expected.1) <= tolerance
        && abs(Int(pixel.2) - expected.2) <= tolerance
    #expect(ok, "got \(pixel), expected \(expected)", sourceLocation: sourceLocation)
}

@Suite struct YCbCrTests {
    @Test func limitedRangeEndpointsAndPrimaries() {
        expectClose(YCbCr.rgb(y: 16, cb: 128, cr: 128), (0, 0, 0), tolerance: 0)
        expectClose(YCbCr.rgb(y: 235, cb: 128, cr: 128), (255, 255, 255), tolerance: 0)
        expectClose(YCbCr.rgb(y: 126, cb: 128, cr: 128), (128, 128, 128), tolerance: 0)
        // BT.601 limited-range codes of pure red, green and blue.
        expectClose(YCbCr.rgb(y: 81, cb: 90, cr: 240), (255, 0, 0))
        expectClose(YCbCr.rgb(y: 145, cb: 54, cr: 34), (0, 255, 0))
        expectClose(YCbCr.rgb(y: 41, cb: 240, cr: 110), (0, 0, 255))
        #expect(YCbCr.ycbcr(red: 255, green: 0, blue: 0) == (82, 90, 240))
    }

    @Test func roundTripStaysWithinTwoLevels() {
        for red in stride(from: 0, through: 255, by: 51) {
            for green in stride(from: 0, through: 255, by: 51) {
                for blue in stride(from: 0, through: 255, by: 51) {
                    let (y, cb, cr) = YCbCr.ycbcr(red: UInt8(red), green: UInt8(green), blue: UInt8(blue))
                    expectClose(YCbCr.rgb(y: y, cb: cb, cr: cr), (red, green, blue))
                }
            }
        }
    }
}

@Suite struct CropTests {
    @Test func centerCropIsTheLargestCentredSquareOnChromaPairs() {
        #expect(CropMode.center.region(width: 640, height: 480, alignment: 2) == CropRegion(x: 80, y: 0, width: 480, height: 480))
        #expect(CropMode.center.region(width: 480, height: 640, alignment: 2) == CropRegion(x: 0, y: 80, width: 480, height: 480))
        #expect(CropMode.center.region(width: 643, height: 481, alignment: 2) == CropRegion(x: 80, y: 0, width: 480, height: 480))
        #expect(CropMode.center.region(width: 643, height: 481) == CropRegion(x: 81, y: 0, width: 481, height: 481))
        #expect(CropMode.none.region(width: 643, height: 481, alignment: 2) == CropRegion(x: 0, y: 0, width: 642, height: 480))
    }
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

@Suite struct MJPEGFrameTests {
    let picture = bands(width: 320, height: 240)
    let converter = FrameConverter(stream: StreamFormat(format: .mjpeg, size: FrameSize(width: 320, height: 240), bytesPerLine: 0),
                                   crop: .center, outputSize: FrameSize(width: 112, height: 112))

    var jpeg: [UInt8] { TestImages.jpeg(picture.pixels, width: 320, height: 240, quality: 90) }

    /// UVC cameras leave out the Huffman tables (DHT) when they are the standard ones.
    @Test func frameWithoutHuffmanTablesDecodesLikeTheFullFile() throws {
        let stripped = FrameBenchmark.strippingHuffmanTables(jpeg)
        let markers = zip(stripped, stripped.dropFirst()).filter { $0 == 0xFF && $1 == 0xC4 }
        #expect(markers.isEmpty)
        #expect(stripped.count < jpeg.count - 400)
        #expect(try converter.convert(stripped) == converter.convert(jpeg))
    }

    @Test func bytesAfterTheEndMarkerAreIgnored() throws {
        #expect(try converter.convert(jpeg + [UInt8](repeating: 0, count: 100_000)) == converter.convert(jpeg))
    }

    @Test func damagedFramesAreRefused() {
        #expect(throws: FrameError.self) { try converter.convert(Array(jpeg.prefix(jpeg.count / 2))) }
        var scrambled = jpeg
        for index in stride(from: scrambled.count / 2, to: scrambled.count - 2, by: 7) { scrambled[index] = 0xFF }
        #expect(throws: FrameError.self) { try converter.convert(scrambled) }
    }
}

@Suite struct FormatNegotiationTests {
    static let vga = FrameSize(width: 640, height: 480)
    static let hd = FrameSize(width: 1280, height: 720)

    func interval(_ framesPerSecond: Int) -> FrameInterval { FrameInterval(numerator: 1, denominator: framesPerSecond) }

    /// A typical USB 2 webcam: YUYV only reaches 10 fps at 720p, MJPEG 30 at every size.
    var webcam: DeviceDescription {
        DeviceDescription(path: "/dev/video0", card: "USB Camera", driver: "uvcvideo", formats: [
            FormatDescription(fourCC: FourCC.code("YUYV"), name: "YUYV 4:2:2", sizes: .discrete([
                SizeOption(size: Self.vga, intervals: [interval(30), interval(15)]),
                SizeOption(size: Self.hd, intervals: [interval(10)]),
            ])),
            FormatDescription(fourCC: FourCC.code("MJPG"), name: "Motion-JPEG", compressed: true, sizes: .discrete([
                SizeOption(size: Self.vga, intervals: [interval(30)]),
                SizeOption(size: Self.hd, intervals: [interval(30), interval(15)]),
            ])),
        ])
    }

    @Test func autoTakesTheFasterFormatAndUncompressedOnATie() throws {
        let hd = try FormatNegotiation.choose(CaptureRequest(size: Self.hd), from: webcam)
        #expect(hd.format == .mjpeg && hd.size == Self.hd && hd.interval == interval(30))
        #expect(hd.reason.contains("YUYV 1280x720 at 10 fps"))
        let vga = try FormatNegotiation.choose(CaptureRequest(size: Self.vga), from: webcam)
        #expect(vga.format == .yuyv && vga.interval == interval(30))
    }

    @Test func requestedFormatRateAndNearestSize() throws {
        let slow = try FormatNegotiation.choose(CaptureRequest(format: .yuyv, size: Self.hd, framesPerSecond: 15), from: webcam)
        #expect(slow.format == .yuyv && slow.interval == FrameInterval(numerator: 1000, denominator: 15000))
        let listed = try FormatNegotiation.choose(CaptureRequest(format: .yuyv, size: Self.vga, framesPerSecond: 15), from: webcam)
        #expect(listed.interval == interval(15))
        let odd = try FormatNegotiation.choose(CaptureRequest(format: .mjpeg, size: FrameSize(width: 800, height: 600)), from: webcam)
        #expect(odd.size == Self.hd && odd.reason.contains("800x600 not offered"))
    }

    @Test func stepwiseSizesAreClampedOntoTheirSteps() throws {
        let device = DeviceDescription(path: "/dev/video0", card: "vivid", driver: "vivid", formats: [
            FormatDescription(fourCC: FourCC.code("NV12"), name: "Y/UV 4:2:0", sizes: .stepwise(
                minimum: FrameSize(width: 16, height: 16), maximum: FrameSize(width: 1920, height: 1080),
                step: FrameSize(width: 2, height: 2), probed: SizeOption(size: FrameSize(width: 254, height: 254), intervals: [interval(60)]))),
        ])
        let plan = try FormatNegotiation.choose(CaptureRequest(size: FrameSize(width: 255, height: 255)), from: device)
        #expect(plan.format == .nv12 && plan.size == FrameSize(width: 254, height: 254) && plan.interval == interval(60))
        let huge = try FormatNegotiation.choose(CaptureRequest(size: FrameSize(width: 4000, height: 3000)), from: device)
        #expect(huge.size == FrameSize(width: 1920, height: 1080) && huge.interval == nil)
    }

    @Test func noReadableFormatListsWhatTheDeviceOffers() {
        let device = DeviceDescription(path: "/dev/video2", card: "Encoder", driver: "uvcvideo", formats: [
            FormatDescription(fourCC: FourCC.code("H264"), name: "H.264", compressed: true, sizes: .discrete([SizeOption(size: Self.vga, intervals: [])])),
        ])
        #expect(throws: CameraError.noSupportedFormat(path: "/dev/video2", requested: "YUYV, MJPEG, NV12 or RGB24", offered: ["H264"])) {
            try FormatNegotiation.choose(CaptureRequest(), from: device)
        }
        #expect(throws: CameraError.noSupportedFormat(path: "/dev/video0", requested: "NV12", offered: ["YUYV", "MJPG"])) {
            try FormatNegotiation.choose(CaptureRequest(format: .nv12), from: webcam)
        }
    }
}

@Suite struct FourCCTests {
    @Test func codesAndNames() {
        #expect(FourCC.code("YUYV") == 0x5659_5559)
        #expect(FourCC.text(FourCC.code("MJPG")) == "MJPG")
        #expect(FourCC.text(FourCC.code("Y16 ")) == "Y16")
        #expect(FourCC.text(FourCC.code("Y16 ") | 1 << 31) == "Y16-BE")
        #expect(FramePixelFormat(fourCC: FourCC.code("NV12")) == .nv12)
        #expect(FramePixelFormat(fourCC: FourCC.code("H264")) == nil)
    }
}
