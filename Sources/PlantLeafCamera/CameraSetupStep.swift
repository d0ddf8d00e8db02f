import PlantLeafCore

/// The step of setting up a capture that failed: an ioctl, with what it was doing.
public enum CameraSetupStep: Sendable, Equatable {
    case setFormat(FramePixelFormat, FrameSize)
    /// The format the driver answered VIDIOC_S_FMT with.
    case checkFormat
    case requestBuffers(count: Int)
    /// The number of buffers the driver granted.
    case checkBuffers
    case queryBuffer
    case mapBuffer(index: Int)
    case queueBuffer(index: Int)
    case startStream
    case requeueBuffer(index: Int)
    case startCaptureThread
    case startModelThread
    case makeStopPipe

    public func text(in catalogue: Catalogue) -> String {
        switch self {
        case .setFormat(let format, let size): return catalogue.text("error.camera.step.set-format", ["format": format.displayName, "size": "\(size)"])
        case .checkFormat: return "VIDIOC_S_FMT"
        case .requestBuffers(let count): return catalogue.text("error.camera.step.request-buffers", ["count": String(count)])
        case .checkBuffers: return "VIDIOC_REQBUFS"
        case .queryBuffer: return "VIDIOC_QUERYBUF"
        case .mapBuffer(let index): return catalogue.text("error.camera.step.map-buffer", ["index": String(index)])
        case .queueBuffer(let index): return catalogue.text("error.camera.step.queue-buffer", ["index": String(index)])
        case .startStream: return catalogue["error.camera.step.start-stream"]
        case .requeueBuffer(let index): return catalogue.text("error.camera.step.requeue-buffer", ["index": String(index)])
        case .startCaptureThread: return catalogue["error.camera.step.capture-thread"]
        case .startModelThread: return catalogue["error.camera.step.model-thread"]
        case .makeStopPipe: return catalogue["error.camera.step.stop-pipe"]
        }
    }
}
