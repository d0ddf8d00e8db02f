/// A scale per colour channel (`WhiteBalance.gains(of:)`), applied by lookup: the green test of a
/// pixel after the scaling costs three table reads, and the identity none.
public struct ChannelGains: Sendable, Equatable {
    public var red: Double
    public var green: Double
    public var blue: Double
    /// The scaled level of each byte value: red's 256, then green's, then blue's.
    private let levels: [Int]

    /// No cast: every level stays as it is.
    public static let identity = ChannelGains(red: 1, green: 1, blue: 1)

    public init(red: Double, green: Double, blue: Double) {
        (self.red, self.green, self.blue) = (red, green, blue)
        levels = [red, green, blue].flatMap { gain in (0..<256).map { min(255, Int((Double($0) * gain).rounded())) } }
    }

    public static func == (first: ChannelGains, second: ChannelGains) -> Bool {
        (first.red, first.green, first.blue) == (second.red, second.green, second.blue)
    }

    /// How many of the `count` pixels from pixel `first` of `pixels` (interleaved RGB) are green
    /// tissue once scaled (`PictureStatistics.isGreenTissue`). The identity reads the bytes as they are.
    func greenCount(_ pixels: UnsafeBufferPointer<UInt8>, first: Int, count: Int) -> Int {
        let bytes = pixels.baseAddress! + first * 3
        var found = 0
        if self == .identity {
            for pixel in 0..<count {
                let offset = pixel &* 3
                found &+= Self.greenTissue(red: Int(bytes[offset]), green: Int(bytes[offset &+ 1]), blue: Int(bytes[offset &+ 2]))
            }
            return found
        }
        levels.withUnsafeBufferPointer { levels in
            let level = levels.baseAddress!
            for pixel in 0..<count {
                let offset = pixel &* 3
                found &+= Self.greenTissue(red: level[Int(bytes[offset])], green: level[256 &+ Int(bytes[offset &+ 1])],
                                           blue: level[512 &+ Int(bytes[offset &+ 2])])
            }
        }
        return found
    }

    /// `PictureStatistics.isGreenTissue` as 1 or 0, with both comparisons made: a photo's pixels go
    /// either way from one to the next, and a branch on each would be mispredicted half the time.
    @inline(__always)
    private static func greenTissue(red: Int, green: Int, blue: Int) -> Int {
        let sum = red &+ green &+ blue
        return (sum >= 90 ? 1 : 0) & (20 &* (2 &* green &- red &- blue) > sum ? 1 : 0)
    }
}
