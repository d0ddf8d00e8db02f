/// Which part of the frame the model sees.
public enum CropMode: String, Sendable, CaseIterable {
    /// The largest centred square: leaves are photographed centred and the model wants a square.
    case center
    /// The whole frame, squeezed to the model's shape.
    case none

    /// The region of a width x height frame to use. Its position and size are multiples of
    /// `alignment`, so a crop never splits the 2x1 or 2x2 pixel groups sharing one chroma sample.
    public func region(width: Int, height: Int, alignment: Int = 1) -> CropRegion {
        switch self {
        case .none:
            return CropRegion(x: 0, y: 0, width: width / alignment * alignment, height: height / alignment * alignment)
        case .center:
            let side = min(width, height) / alignment * alignment
            return CropRegion(x: (width - side) / 2 / alignment * alignment, y: (height - side) / 2 / alignment * alignment,
                              width: side, height: side)
        }
    }
}

/// A rectangle of a frame, in pixels from its top-left corner.
public struct CropRegion: Sendable, Equatable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    /// The region `width` x `height` whose top-left pixel is (x, y).
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}
