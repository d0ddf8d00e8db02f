import PlantLeafCore

/// How a motion-JPEG frame broke off (its bytes counted from its start).
public enum DamagedFrame: Sendable, Equatable {
    /// Where a marker must be, another byte is.
    case noMarker(atByte: Int)
    /// A new frame started inside this one.
    case cutOff(afterBytes: Int)
    /// A marker segment's length is below the 2 bytes of the length itself.
    case badSegmentLength(Int)

    public func text(in catalogue: Catalogue) -> String {
        switch self {
        case .noMarker(let byte): return catalogue.text("camera.frame.no-marker", ["byte": String(byte)])
        case .cutOff(let bytes): return catalogue.text("camera.frame.cut-off", ["bytes": String(bytes)])
        case .badSegmentLength(let length): return catalogue.text("camera.frame.segment-length", ["length": String(length)])
        }
    }
}
