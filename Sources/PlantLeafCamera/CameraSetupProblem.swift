import PlantLeafCore
import PlantLeafSupport

/// Why a set-up step failed.
public enum CameraSetupProblem: Sendable, Equatable {
    case system(SystemError)
    /// The driver answered with a format PlantLeaf does not read (its four-character code).
    case driverSwitched(to: String)
    case tooFewBuffers(granted: Int)

    public func text(in catalogue: Catalogue) -> String {
        switch self {
        case .system(let error): return error.reason(in: catalogue)
        case .driverSwitched(let format): return catalogue.text("error.camera.setup.driver-switched", ["format": format])
        case .tooFewBuffers(let granted): return catalogue.text("error.camera.setup.too-few-buffers", ["granted": String(granted)])
        }
    }
}
