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
}
