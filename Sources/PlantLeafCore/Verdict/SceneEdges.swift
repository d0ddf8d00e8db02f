/// Whether green tissue runs off every side of the picture, as in a field photo of a plant or a
/// canopy, which the leaf model never learned: it learned one leaf on a plain background, with
/// background along most of the picture's edges. Read on the model-size picture.
public struct SceneEdges: Sendable, Equatable {
    /// The share of the pixels in a band along the four edges that are green tissue (after the
    /// colour-cast balance, when the vegetation check needed one).
    public let greenShare: Double
    /// The green share of the least green of the four edge bands: high only when green runs off
    /// every side.
    public let leastGreenSide: Double

    /// The band along each edge, as a share of the picture's side: 12 pixels of 224.
    static let bandShare = 12.0 / 224

    public init(greenShare: Double, leastGreenSide: Double) {
        self.greenShare = greenShare
        self.leastGreenSide = leastGreenSide
    }

    /// The edges of `image`, with its colours scaled by `gains` first.
    public init(image: RGBImage, gains: ChannelGains = .identity) {
        let (width, height) = (image.width, image.height)
        let band = max(1, Int((Double(min(width, height)) * Self.bandShare).rounded()))
        guard width > 2 * band, height > 2 * band else {
            self.init(greenShare: 0, leastGreenSide: 0)
            return
        }
        // Green pixels and pixels per side: top, bottom, left, right (the corners in top and bottom).
        var green = [0, 0, 0, 0], total = [0, 0, 0, 0]
        image.pixels.withUnsafeBufferPointer { pixels in
            func count(_ xs: Range<Int>, y: Int, side: Int) {
                green[side] += gains.greenCount(pixels, first: y * width + xs.lowerBound, count: xs.count)
                total[side] += xs.count
            }
            for y in 0..<height {
                if y < band || y >= height - band {
                    count(0..<width, y: y, side: y < band ? 0 : 1)
                } else {
                    count(0..<band, y: y, side: 2)
                    count((width - band)..<width, y: y, side: 3)
                }
            }
        }
        self.init(greenShare: Double(green.reduce(0, +)) / Double(total.reduce(0, +)),
                  leastGreenSide: (0..<4).map { Double(green[$0]) / Double(total[$0]) }.min()!)
    }
}
