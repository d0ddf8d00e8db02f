import PlantLeafCore
import PlantLeafSupport

/// Why a device, a stream or the folder for saved frames could not be opened or written.
public enum CameraOpenProblem: Sendable, Equatable {
    case system(SystemError)
    /// --input - on a terminal, where no stream can come from.
    case standardInputIsTerminal
    /// --input names a device or a folder, not a file, pipe or socket.
    case notAStream
    case cannotMakeSaveFolder(FileWriteError)
    case cannotEncodeFrame(ImageError)
    case cannotSaveFrame(FileWriteError)

    /// The reason in `catalogue`'s language; a write's reason is the system's words as they came.
    public func text(in catalogue: Catalogue) -> String {
        switch self {
        case .system(let error): return error.reason(in: catalogue)
        case .standardInputIsTerminal: return catalogue["error.camera.open.terminal"]
        case .notAStream: return catalogue["error.camera.open.not-a-stream"]
        case .cannotMakeSaveFolder(let error): return catalogue.text("error.camera.open.save-folder", ["reason": error.reason])
        case .cannotEncodeFrame(let error): return catalogue.text("error.camera.open.encode-frame", ["reason": error.description(in: catalogue)])
        case .cannotSaveFrame(let error): return catalogue.text("error.camera.open.save-frame", ["reason": error.reason])
        }
    }
}
