import PlantLeafCore

extension Journal {
    /// The source of a reading the journal already holds at `time` (to the millisecond, at the
    /// same offset) with `record`'s content as the journal keeps it, looked for under `source`, or
    /// under every source when nil (a camera's log does not name its camera, so the same log may
    /// have been imported under another name, or written by the camera itself); nil when none.
    /// What makes importing a log twice add nothing the second time.
    public func sourceOfKnownReading(_ record: ReadingRecord, source: String?, time: JournalTime) throws(JournalError) -> String? {
        let instant = Selection(since: time, until: JournalTime(milliseconds: time.milliseconds + 1, offsetMinutes: time.offsetMinutes), source: source)
        let kept = Journal.asKept(record, time: time).json
        return try readings(instant).first { $0.time == time && $0.record.json == kept }?.source
    }

    /// `record` as reading it back from the journal gives it: the time as the journal writes it,
    /// no file name, each score as the single-precision float it is kept as, and a timing or rate
    /// that is no number (a null in the log) absent, as it is kept.
    static func asKept(_ record: ReadingRecord, time: JournalTime) -> ReadingRecord {
        func number(_ value: Double?) -> Double? { value.flatMap { $0.isFinite ? $0 : nil } }
        var kept = record
        kept.path = nil
        kept.pathHex = nil
        kept.time = time.iso8601
        kept.top = record.top.map { ScoredClass(index: $0.index, label: $0.label, score: Double(Float($0.score))) }
        kept.ageMilliseconds = number(record.ageMilliseconds)
        kept.timings.read = number(record.timings.read)
        kept.timings.postprocess = number(record.timings.postprocess)
        kept.timings.generalist = number(record.timings.generalist)
        kept.captureFramesPerSecond = number(record.captureFramesPerSecond)
        kept.inferenceFramesPerSecond = number(record.inferenceFramesPerSecond)
        return kept
    }
}
