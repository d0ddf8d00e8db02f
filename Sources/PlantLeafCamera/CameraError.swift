import PlantLeafCore
/// Why the camera could not start or stopped early: what failed and on which device, in one line.
public enum CameraError: PlantLeafError {
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

    public var message: String {
        switch self {
        case .noSuchDevice(let path, let existing):
            return existing.isEmpty ? "\(path): no such device; no /dev/video* devices exist"
                : "\(path): no such device; devices present: \(existing.joined(separator: ", "))"
        case .permissionDenied(let path): return "\(path): permission denied"
        case .cannotOpen(let path, _): return "\(path): cannot open"
        case .notCaptureDevice(let path, let detail): return "\(path): not a video capture device (\(detail))"
        case .busy(let path): return "\(path): device is busy: another program is using the camera"
        case .noSupportedFormat(let path, let requested, let offered):
            let list = offered.isEmpty ? "nothing" : offered.joined(separator: ", ")
            return "\(path): offers no \(requested) format PlantLeaf can read (it offers \(list))"
        case .setupFailed(let path, let step, _): return "\(path): \(step) failed"
        case .noFrame(let path, let timeout): return "\(path): no frame within \(JSONObject.number(timeout, decimals: 1)) s"
        case .unplugged(let path): return "\(path): camera unplugged during capture (ENODEV)"
        case .streamFailed(let path, _): return "\(path): capture failed"
        }
    }

    public var details: String? {
        switch self {
        case .cannotOpen(_, let reason), .setupFailed(_, _, let reason), .streamFailed(_, let reason): return reason
        default: return nil
        }
    }
}
