import PlantLeafCore
import PlantLeafSupport

/// Why capture stopped part-way: the system call that failed, or what the driver or model did.
public enum CameraStreamProblem: Sendable, Equatable {
    case stoppedSending
    case inference(RuntimeError)
    case poll(SystemError)
    case read(SystemError)
    case dequeue(SystemError)
    case unknownBuffer(index: Int)

    public func text(in catalogue: Catalogue) -> String {
        switch self {
        case .stoppedSending: return catalogue["error.camera.stream.stopped"]
        case .inference(let error): return catalogue.text("error.camera.stream.inference", ["problem": error.description(in: catalogue)])
        case .poll(let error): return "poll: " + error.reason(in: catalogue)
        case .read(let error): return "read: " + error.reason(in: catalogue)
        case .dequeue(let error): return "VIDIOC_DQBUF: " + error.reason(in: catalogue)
        case .unknownBuffer(let index): return catalogue.text("error.camera.stream.unknown-buffer", ["index": String(index)])
        }
    }
}
