import PlantLeafCore

/// Why negotiation took the format and size it did, as facts for the set-up line to word.
public struct CaptureChoice: Sendable, Equatable {
    /// Another readable format the device offers, at the size it would get and its fastest rate
    /// there (0 when it lists none).
    public struct Offer: Sendable, Equatable {
        public var format: FramePixelFormat
        public var size: FrameSize
        public var framesPerSecond: Double

        public init(format: FramePixelFormat, size: FrameSize, framesPerSecond: Double) {
            (self.format, self.size, self.framesPerSecond) = (format, size, framesPerSecond)
        }
    }

    /// --pixel-format named the format; otherwise it was chosen among those PlantLeaf reads.
    public var formatRequested: Bool
    /// The size asked for, when the device does not offer it and the nearest was taken.
    public var sizeNotOffered: FrameSize?
    /// With the format chosen automatically: the other formats it could have been, best first.
    public var alsoOffered: [Offer]

    public init(formatRequested: Bool, sizeNotOffered: FrameSize? = nil, alsoOffered: [Offer] = []) {
        (self.formatRequested, self.sizeNotOffered, self.alsoOffered) = (formatRequested, sizeNotOffered, alsoOffered)
    }
}
