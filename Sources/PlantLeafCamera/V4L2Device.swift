import PlantLeafCore
import CV4L2
import Glibc
import PlantLeafSupport

/// An open V4L2 capture node (opened non-blocking: frames are waited for with poll).
public final class V4L2Device {
    public let path: String
    public let card: String
    public let driver: String
    public let busInfo: String
    let descriptor: Int32

    /// Opens `path` and checks it is a V4L2 node that captures single-planar video and streams.
    ///
    /// - Throws: `CameraError.noSuchDevice`, `.permissionDenied`, `.busy`, `.cannotOpen`, or
    ///   `.notCaptureDevice` when the node does not capture and stream video.
    public init(path: String) throws(CameraError) {
        self.path = path
        let descriptor = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT, ENODEV, ENXIO: throw .noSuchDevice(path: path, existing: V4L2Device.nodePaths())
            case EACCES, EPERM: throw .permissionDenied(path: path)
            case EBUSY: throw .busy(path: path)
            default: throw .cannotOpen(path: path, reason: .system(SystemError(errno)))
            }
        }
        var capability = PLV4L2Capability()
        let status = pl_v4l2_query_capability(descriptor, &capability)
        guard status == 0 else {
            close(descriptor)
            // A kernel answers an ioctl the file does not know with ENOTTY; qemu-user, running an
            // aarch64 build on another machine, with ENOSYS. Either way the node speaks no V4L2.
            let speaksNoV4L2 = status == ENOTTY || status == ENOSYS
            throw .notCaptureDevice(path: path, reason: speaksNoV4L2 ? .notV4L2 : .queryFailed(SystemError(status)))
        }
        card = stringFromCField(capability.card)
        driver = stringFromCField(capability.driver)
        busInfo = stringFromCField(capability.bus_info)
        let caps = capability.capabilities & PL_V4L2_CAP_DEVICE_CAPS != 0 ? capability.device_caps : capability.capabilities
        let problem: CaptureDeviceProblem? = if caps & PL_V4L2_CAP_VIDEO_CAPTURE == 0 {
            caps & PL_V4L2_CAP_VIDEO_CAPTURE_MPLANE != 0 ? .multiPlanarOnly(card: card) : .noVideoCapture(card: card, driver: driver)
        } else if caps & PL_V4L2_CAP_STREAMING == 0 {
            .cannotStream(card: card, driver: driver)
        } else {
            nil
        }
        if let problem {
            close(descriptor)
            throw .notCaptureDevice(path: path, reason: problem)
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// /dev/video* in number order (video2 before video10).
    public static func nodePaths() -> [String] {
        guard let directory = opendir("/dev") else { return [] }
        defer { closedir(directory) }
        var numbers: [Int] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("video"), let number = Int(name.dropFirst(5)) { numbers.append(number) }
        }
        return numbers.sorted().map { "/dev/video\($0)" }
    }

    /// Every capture format with its sizes and their frame rates. For a stepwise size range the
    /// rates are probed at the size `request` would get.
    public func describe(probing request: FrameSize? = nil) -> DeviceDescription {
        var formats: [FormatDescription] = []
        var entry = PLV4L2FormatEntry()
        var index: UInt32 = 0
        while pl_v4l2_enum_format(descriptor, index, &entry) == 0 {
            index += 1
            formats.append(FormatDescription(fourCC: entry.pixel_format, name: stringFromCField(entry.description),
                                             compressed: entry.flags & PL_V4L2_FMT_FLAG_COMPRESSED != 0,
                                             sizes: sizes(of: entry.pixel_format, probing: request)))
        }
        return DeviceDescription(path: path, card: card, driver: driver, busInfo: busInfo, formats: formats)
    }

    private func sizes(of fourCC: UInt32, probing request: FrameSize?) -> FrameSizes {
        var size = PLV4L2FrameSize()
        var options: [SizeOption] = []
        var index: UInt32 = 0
        while pl_v4l2_enum_frame_size(descriptor, fourCC, index, &size) == 0 {
            index += 1
            guard size.type == PL_V4L2_FRMSIZE_TYPE_DISCRETE else {
                let step = size.type == PL_V4L2_FRMSIZE_TYPE_CONTINUOUS ? FrameSize(width: 1, height: 1)
                    : FrameSize(width: Int(size.step_width), height: Int(size.step_height))
                var range = FrameSizes.stepwise(minimum: FrameSize(width: Int(size.min_width), height: Int(size.min_height)),
                                                maximum: FrameSize(width: Int(size.max_width), height: Int(size.max_height)),
                                                step: step, probed: nil)
                if let request, let fitted = range.fit(request)?.size,
                   case .stepwise(let minimum, let maximum, let step, _) = range {
                    range = .stepwise(minimum: minimum, maximum: maximum, step: step,
                                      probed: SizeOption(size: fitted, intervals: intervals(of: fourCC, size: fitted)))
                }
                return range
            }
            let discrete = FrameSize(width: Int(size.width), height: Int(size.height))
            options.append(SizeOption(size: discrete, intervals: intervals(of: fourCC, size: discrete)))
        }
        return .discrete(options)
    }

    private func intervals(of fourCC: UInt32, size: FrameSize) -> [FrameInterval] {
        var interval = PLV4L2FrameInterval()
        var found: [FrameInterval] = []
        var index: UInt32 = 0
        while pl_v4l2_enum_frame_interval(descriptor, fourCC, UInt32(size.width), UInt32(size.height), index, &interval) == 0 {
            index += 1
            guard interval.type == PL_V4L2_FRMIVAL_TYPE_DISCRETE else {
                return [FrameInterval(numerator: Int(interval.min_numerator), denominator: Int(interval.min_denominator)),
                        FrameInterval(numerator: Int(interval.max_numerator), denominator: Int(interval.max_denominator))]
            }
            found.append(FrameInterval(numerator: Int(interval.numerator), denominator: Int(interval.denominator)))
        }
        return found
    }

    /// Sets the plan's format, size and rate; returns what the driver actually chose.
    ///
    /// - Throws: `CameraError.setupFailed` naming the ioctl that failed.
    public func configure(_ plan: CapturePlan) throws(CameraError) -> StreamFormat {
        var format = PLV4L2PixelFormat(pixel_format: plan.format.fourCC, width: UInt32(plan.size.width),
                                       height: UInt32(plan.size.height), bytes_per_line: 0, size_image: 0)
        try check(pl_v4l2_set_format(descriptor, &format), step: .setFormat(plan.format, plan.size))
        guard let chosen = FramePixelFormat(fourCC: format.pixel_format) else {
            throw .setupFailed(path: path, step: .checkFormat, reason: .driverSwitched(to: FourCC.text(format.pixel_format)))
        }
        let width = Int(format.width)
        let bytesPerPixel = chosen.facts.bytesPerPixel
        let bytesPerLine = bytesPerPixel == 0 ? 0 : max(Int(format.bytes_per_line), width * bytesPerPixel)
        var framesPerSecond: Double?
        if let interval = plan.interval {
            var numerator = UInt32(interval.numerator), denominator = UInt32(interval.denominator)
            if pl_v4l2_set_frame_interval(descriptor, &numerator, &denominator) == 0, numerator > 0 {
                framesPerSecond = Double(denominator) / Double(numerator)
            }
        }
        return StreamFormat(format: chosen, size: FrameSize(width: width, height: Int(format.height)),
                            bytesPerLine: bytesPerLine, imageBytes: Int(format.size_image), framesPerSecond: framesPerSecond)
    }

    /// Turns a failed setup ioctl into the matching error (busy and unplugged have their own).
    func check(_ status: Int32, step: CameraSetupStep) throws(CameraError) {
        switch status {
        case 0: return
        case EBUSY: throw .busy(path: path)
        case ENODEV: throw .unplugged(path: path)
        default: throw .setupFailed(path: path, step: step, reason: .system(SystemError(status)))
        }
    }
}
