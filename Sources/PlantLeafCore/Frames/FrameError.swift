/// Why one captured frame could not be turned into model input. The frame is skipped and counted.
public enum FrameError: PlantLeafError {
    case tooShort(bytes: Int, expected: Int)
    case corruptJPEG(ImageError)

    public var message: String {
        switch self {
        case .tooShort(let bytes, let expected): return "frame has \(bytes) bytes, \(expected) expected"
        case .corruptJPEG: return "MJPEG frame"
        }
    }

    public var details: String? {
        if case .corruptJPEG(let error) = self { return error.description }
        return nil
    }
}
