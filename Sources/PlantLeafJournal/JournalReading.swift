import PlantLeafCore

/// One row of the journal's readings: the reading's record as a front end wrote it, where it
/// came from and when.
public struct JournalReading: Sendable, Equatable {
    /// The row's number: readings are numbered in the order they were written.
    public var id: Int64
    /// A camera's name (its device or stream) or "upload".
    public var source: String
    public var time: JournalTime
    /// The record, its "time" the journal's.
    public var record: ReadingRecord
    /// Whether the journal keeps a picture of it (an upload's, with serve --keep-upload-photos).
    public var hasPicture = false
}
