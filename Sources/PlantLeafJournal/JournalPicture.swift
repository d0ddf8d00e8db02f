/// The journal's pictures and the addresses the server answers them at, `?id=` their row's
/// number: the journal's JSON and pages link them, the server routes them here.
public enum JournalPicture: String, CaseIterable, Sendable {
    /// An event's first frame.
    case event = "/api/events/picture"
    /// An upload's own picture (serve --keep-upload-photos).
    case reading = "/api/readings/picture"
    /// The day's strip: a camera's first frame of an hour.
    case snapshot = "/api/strip/picture"

    public func address(id: Int64) -> String { "\(rawValue)?id=\(id)" }

    /// Row `id`'s picture (JPEG) from `journal`, nil when it has none or it is no longer kept.
    public func jpeg(id: Int64, in journal: Journal) throws(JournalError) -> [UInt8]? {
        switch self {
        case .event: try journal.eventPicture(id: id)
        case .reading: try journal.readingPicture(id: id)
        case .snapshot: try journal.snapshot(id: id)
        }
    }
}
