/// Why the camera could not start or stopped early. Each says what failed, on which device, and
/// what to do about it, in one line.
public enum CameraError: Error, Equatable, CustomStringConvertible {
    case noSuchDevice(path: String, existing: [String])
    case permissionDenied(path: String)
    case cannotOpen(path: String, reason: String)
    /// The node answers, but not as a V4L2 device that captures video and streams it.
    case notCaptureDevice(path: String, detail: String)
    case busy(path: String)
    case noSupportedFormat(path: String, requested: String, offered: [String])
    /// An ioctl or mmap while setting up the stream failed.
    case setupFailed(path: String, step: String, reason: String)
    case noFrame(path: String, timeout: Double)
    case unplugged(path: String)
    case streamFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .noSuchDevice(let path, let existing):
            let found = existing.isEmpty ? "no /dev/video* devices exist: plug a camera in (and check dmesg)"
                : "devices present: \(existing.joined(separator: ", ")) (see plantleaf camera --list)"
            return "\(path): no such device; \(found)"
        case .permissionDenied(let path):
            return "\(path): permission denied; add your user to the 'video' group (sudo usermod -aG video $USER, then log in again)"
        case .cannotOpen(let path, let reason):
            return "\(path): cannot open: \(reason)"
        case .notCaptureDevice(let path, let detail):
            return "\(path): not a video capture device (\(detail)); pick a capture node from plantleaf camera --list"
        case .busy(let path):
            return "\(path): device is busy: another program is using the camera; close it (fuser \(path) shows which) and retry"
        case .noSupportedFormat(let path, let requested, let offered):
            let list = offered.isEmpty ? "nothing" : offered.joined(separator: ", ")
            return "\(path): offers no \(requested) format PlantLeaf can read (it offers \(list)); try --format auto or another camera"
        case .setupFailed(let path, let step, let reason):
            return "\(path): \(step) failed: \(reason); unplug and replug the camera, or try another --size or --format"
        case .noFrame(let path, let timeout):
            return "\(path): no frame within \(JSONObject.number(timeout, decimals: 1)) s; check the camera is connected and not covered by another input (or raise --timeout)"
        case .unplugged(let path):
            return "\(path): camera unplugged during capture (ENODEV); reconnect it and run again"
        case .streamFailed(let path, let reason):
            return "\(path): capture failed: \(reason); reconnect the camera and run again"
        }
    }
}
