/// How much neighbouring pixels differ, against how much the picture varies at all: the mean
/// absolute luma difference between horizontal neighbours over the luma's standard deviation.
/// In a photo neighbours are alike (the lab leaves and the photo sets reach 0.42); in noise they
/// are independent, and the ratio is near 2/√π ≈ 1.13 (0.95–1.16 for random pictures resized to
/// the model's input). Read on every fourth row of the model-size picture: enough rows for a
/// steady mean at a quarter of the cost.
public enum NeighbourContrast {
    static let rowStep = 4

    /// The ratio for `image`, whose luma standard deviation is `spread` (`PictureStatistics`); 0
    /// for a flat picture (the flat check speaks for it).
    public static func ratio(of image: RGBImage, spread: Double) -> Double {
        guard spread > 0, image.width > 1, image.height > 0 else { return 0 }
        var sum = 0, count = 0
        image.pixels.withUnsafeBufferPointer { pixels in
            let bytes = pixels.baseAddress!
            for y in stride(from: 0, to: image.height, by: rowStep) {
                let row = bytes + y * image.width * 3
                var previous = 77 &* Int(row[0]) &+ 150 &* Int(row[1]) &+ 29 &* Int(row[2])
                for x in 1..<image.width {
                    let luma = 77 &* Int(row[x &* 3]) &+ 150 &* Int(row[x &* 3 &+ 1]) &+ 29 &* Int(row[x &* 3 &+ 2])
                    sum &+= abs(luma &- previous)
                    previous = luma
                }
                count += image.width - 1
            }
        }
        return Double(sum) / 256 / Double(count) / spread
    }
}
