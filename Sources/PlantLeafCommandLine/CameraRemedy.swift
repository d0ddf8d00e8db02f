import PlantLeafCamera
import PlantLeafCore

/// What to do about a camera that cannot be opened or stops giving frames.
extension CameraError: HasRemedy {
    func remedy(in catalogue: Catalogue) -> String? {
        switch self {
        case .noSuchDevice(_, let existing): return catalogue[existing.isEmpty ? "remedy.camera.no-device" : "remedy.camera.list-devices"]
        case .permissionDenied: return catalogue["remedy.camera.permission-denied"]
        case .cannotOpen: return nil
        case .notCaptureDevice: return catalogue["remedy.camera.not-capture-device"]
        case .busy(let path): return catalogue.text("remedy.camera.busy", ["path": path])
        case .noSupportedFormat: return catalogue["remedy.camera.no-supported-format"]
        case .setupFailed: return catalogue["remedy.camera.setup-failed"]
        case .noFrame: return catalogue["remedy.camera.no-frame"]
        case .unplugged: return catalogue["remedy.camera.unplugged"]
        case .streamFailed: return catalogue["remedy.camera.stream-failed"]
        }
    }
}
