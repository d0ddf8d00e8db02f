/// How much history the journal keeps: readings older than `keepDays` go, and when the file
/// grows past `maxBytes` the oldest readings go first, events' pictures last.
public struct RetentionPolicy: Sendable, Equatable {
    /// A year: what a grower compares this season with.
    public static let defaultKeepDays = 365.0
    /// 1 GiB: a year of a reading a minute is about 80 MB, and a thousand events' pictures at most
    /// 30 MB; the rest is room, on a 16 GB SD card that holds the system too.
    public static let defaultMaxBytes: Int64 = 1 << 30
    public static let keepDaysRange = 1.0 / 24...36_500.0
    /// From 1 MiB: below that the journal's own tables and the write-ahead log are most of it.
    public static let maxBytesRange: ClosedRange<Int64> = 1 << 20...(1 << 50)

    public var keepDays: Double
    public var maxBytes: Int64

    public init(keepDays: Double = RetentionPolicy.defaultKeepDays, maxBytes: Int64 = RetentionPolicy.defaultMaxBytes) {
        self.keepDays = keepDays
        self.maxBytes = maxBytes
    }
}
