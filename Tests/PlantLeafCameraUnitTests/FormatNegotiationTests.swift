import PlantLeafCore
import PlantLeafCamera
import Testing

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
        #expect(hd.reason.alsoOffered.contains(CaptureChoice.Offer(format: .yuyv, size: Self.hd, framesPerSecond: 10)))
        let vga = try FormatNegotiation.choose(CaptureRequest(size: Self.vga), from: webcam)
        #expect(vga.format == .yuyv && vga.interval == interval(30))
    }

    @Test func requestedFormatRateAndNearestSize() throws {
        let slow = try FormatNegotiation.choose(CaptureRequest(format: .yuyv, size: Self.hd, framesPerSecond: 15), from: webcam)
        #expect(slow.format == .yuyv && slow.interval == FrameInterval(numerator: 1000, denominator: 15000))
        let listed = try FormatNegotiation.choose(CaptureRequest(format: .yuyv, size: Self.vga, framesPerSecond: 15), from: webcam)
        #expect(listed.interval == interval(15))
        let odd = try FormatNegotiation.choose(CaptureRequest(format: .mjpeg, size: FrameSize(width: 800, height: 600)), from: webcam)
        #expect(odd.size == Self.hd && odd.reason == CaptureChoice(formatRequested: true, sizeNotOffered: FrameSize(width: 800, height: 600)))
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
        #expect(throws: CameraError.noSupportedFormat(path: "/dev/video2", requested: nil, offered: ["H264"])) {
            try FormatNegotiation.choose(CaptureRequest(), from: device)
        }
        #expect(throws: CameraError.noSupportedFormat(path: "/dev/video0", requested: .nv12, offered: ["YUYV", "MJPG"])) {
            try FormatNegotiation.choose(CaptureRequest(format: .nv12), from: webcam)
        }
    }
}
