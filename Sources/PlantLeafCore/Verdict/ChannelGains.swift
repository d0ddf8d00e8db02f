/// A scale per colour channel (`WhiteBalance.gains(of:)`), applied by lookup: the green test of a
/// pixel after the scaling costs three table reads, and none is made for the identity.
public struct ChannelGains: Sendable, Equatable {
    public var red: Double
    public var green: Double
    public var blue: Double
    /// The scaled level of each byte value, per channel.
    private let tables: [[Int]]

    /// No cast: every level stays as it is.
    public static let identity = ChannelGains(red: 1, green: 1, blue: 1)

    public init(red: Double, green: Double, blue: Double) {
        (self.red, self.green, self.blue) = (red, green, blue)
        tables = [red, green, blue].map { gain in (0..<256).map { min(255, Int((Double($0) * gain).rounded())) } }
    }

    public static func == (first: ChannelGains, second: ChannelGains) -> Bool {
        (first.red, first.green, first.blue) == (second.red, second.green, second.blue)
    }

    /// Whether the pixel at `offset` of `pixels` (interleaved RGB) is green tissue once scaled
    /// (`PictureStatistics.isGreenTissue`).
    func isGreenTissue(_ pixels: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        PictureStatistics.isGreenTissue(red: tables[0][Int(pixels[offset])], green: tables[1][Int(pixels[offset + 1])],
                                        blue: tables[2][Int(pixels[offset + 2])])
    }
}
