/// What the journal's writer says while readings go on, as `JournalRecorder` reports it; front
/// ends word it.
public enum JournalNotice: Sendable, Equatable {
    /// A write failed: the readings go on to the other outputs without the journal. Said once
    /// for a failure, not at every reading.
    case writeFailed(JournalError)
    /// The journal at `path` takes readings again after a failure.
    case writingAgain(path: String)
    /// A reader passed over a row of the journal at `path` that holds what no row can (a
    /// damaged or hand-edited file); said once a row.
    case rowPassedOver(path: String, row: JournalDamagedRow)
    /// The journal's writer fell behind (another process holds the journal locked, or the disk
    /// is slow) and its queue is full: readings are not kept until it catches up. Said once.
    case fallingBehind(path: String)
    /// The writer caught up again; `count` readings were not kept meanwhile.
    case caughtUp(path: String, count: Int)
    /// The path no longer names the file being written (deleted, or moved away): a new journal
    /// starts at the path.
    case replaced(path: String)
}
