import PlantLeafCore
import PlantLeafSupport

/// Why a video node is not one PlantLeaf can capture from: the card and driver it names are its own.
public enum CaptureDeviceProblem: Sendable, Equatable {
    /// It answers no V4L2 ioctl at all.
    case notV4L2
    case queryFailed(SystemError)
    case multiPlanarOnly(card: String)
    case noVideoCapture(card: String, driver: String)
    case cannotStream(card: String, driver: String)

    public func text(in catalogue: Catalogue) -> String {
        switch self {
        case .notV4L2: return catalogue["error.camera.device.not-v4l2"]
        case .queryFailed(let error): return "VIDIOC_QUERYCAP: " + error.reason(in: catalogue)
        case .multiPlanarOnly(let card): return catalogue.text("error.camera.device.multi-planar", ["card": card])
        case .noVideoCapture(let card, let driver): return catalogue.text("error.camera.device.no-capture", ["card": card, "driver": driver])
        case .cannotStream(let card, let driver): return catalogue.text("error.camera.device.cannot-stream", ["card": card, "driver": driver])
        }
    }
}
