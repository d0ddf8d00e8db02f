import PlantLeafCore
import PlantLeafSupport

/// Why the camera could not start or stopped early: what failed and on which device, in one line,
/// in any catalogue's language. The ioctl and system call names, paths and formats stay as they are.
public enum CameraError: WordedError {
    case noSuchDevice(path: String, existing: [String])
    case permissionDenied(path: String)
    case cannotOpen(path: String, reason: CameraOpenProblem)
    /// The node answers, but not as a V4L2 device that captures video and streams it.
    case notCaptureDevice(path: String, reason: CaptureDeviceProblem)
    case busy(path: String)
    /// `requested` nil: any format PlantLeaf reads was asked for.
    case noSupportedFormat(path: String, requested: FramePixelFormat?, offered: [String])
    /// An ioctl or mmap while setting up the stream failed.
    case setupFailed(path: String, step: CameraSetupStep, reason: CameraSetupProblem)
    case noFrame(path: String, timeout: Double)
    case unplugged(path: String)
    case streamFailed(path: String, reason: CameraStreamProblem)

    public func message(in catalogue: Catalogue) -> String {
        switch self {
        case .noSuchDevice(let path, let existing):
            return existing.isEmpty ? catalogue.text("error.camera.no-such-device.none", ["path": path])
                : catalogue.text("error.camera.no-such-device", ["path": path, "devices": existing.joined(separator: ", ")])
        case .permissionDenied(let path): return catalogue.text("error.camera.permission-denied", ["path": path])
        case .cannotOpen(let path, _): return catalogue.text("error.camera.cannot-open", ["path": path])
        case .notCaptureDevice(let path, let reason):
            return catalogue.text("error.camera.not-capture-device", ["path": path, "problem": reason.text(in: catalogue)])
        case .busy(let path): return catalogue.text("error.camera.busy", ["path": path])
        case .noSupportedFormat(let path, let requested, let offered):
            let names = FramePixelFormat.table.map(\.displayName)
            let wanted = requested?.displayName
                ?? catalogue.text("error.camera.any-format", ["formats": names.dropLast().joined(separator: ", "), "last": names.last ?? ""])
            let list = offered.isEmpty ? catalogue["error.camera.offers-nothing"] : offered.joined(separator: ", ")
            return catalogue.text("error.camera.no-supported-format", ["path": path, "requested": wanted, "offered": list])
        case .setupFailed(let path, let step, _): return catalogue.text("error.camera.setup-failed", ["path": path, "step": step.text(in: catalogue)])
        case .noFrame(let path, let timeout):
            return catalogue.text("error.camera.no-frame", ["path": path, "seconds": JSONObject.number(timeout, decimals: 1)])
        case .unplugged(let path): return catalogue.text("error.camera.unplugged", ["path": path])
        case .streamFailed(let path, _): return catalogue.text("error.camera.capture-failed", ["path": path])
        }
    }

    public func details(in catalogue: Catalogue) -> String? {
        switch self {
        case .cannotOpen(_, let reason): return reason.text(in: catalogue)
        case .setupFailed(_, _, let reason): return reason.text(in: catalogue)
        case .streamFailed(_, let reason): return reason.text(in: catalogue)
        default: return nil
        }
    }
}
