/// A camera's recent readings, for the picture check's stuck-camera rule: the picture the last
/// reading had and how many readings running had exactly that picture.
public struct PictureHistory: Sendable, Equatable {
    public private(set) var last: PictureStatistics?
    public private(set) var unchangedReadings = 0

    public init() {}

    /// Adds a reading's picture.
    public mutating func record(_ picture: PictureStatistics) {
        if picture == last {
            unchangedReadings += 1
        } else {
            last = picture
            unchangedReadings = 1
        }
    }

    /// How many readings running `picture` would make, counting itself.
    public func readingsRunning(with picture: PictureStatistics) -> Int {
        picture == last ? unchangedReadings + 1 : 1
    }
}
