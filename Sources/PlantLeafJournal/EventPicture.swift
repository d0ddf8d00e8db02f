import PlantLeafCore

/// An event's picture: its first reading's frame as a JPEG small enough to keep thousands of.
public enum EventPicture {
    /// The most a picture takes in the journal.
    public static let maximumBytes = 30_000

    /// `image` as JPEG of at most `maximumBytes`: at the quality that fits, down from 85; nil when
    /// none does (a frame far larger than a model's input).
    public static func encode(_ image: RGBImage) -> [UInt8]? {
        for quality in [85, 70, 55, 40, 25] {
            guard let bytes = try? JPEGEncoder.encode(image, quality: quality) else { return nil }
            if bytes.count <= maximumBytes { return bytes }
        }
        return nil
    }
}
