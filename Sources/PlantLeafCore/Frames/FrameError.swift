/// Why one captured frame could not be turned into model input. The frame is skipped and counted.
public enum FrameError: WordedError {
    case tooShort(bytes: Int, expected: Int)
    case corruptJPEG(ImageError)

    public func message(in catalogue: Catalogue) -> String {
        switch self {
        case .tooShort(let bytes, let expected): return catalogue.text("error.frame.too-short", ["bytes": String(bytes), "expected": String(expected)])
        case .corruptJPEG: return catalogue["error.frame.corrupt-jpeg"]
        }
    }

    public func details(in catalogue: Catalogue) -> String? {
        if case .corruptJPEG(let error) = self { return error.description(in: catalogue) }
        return nil
    }
}
