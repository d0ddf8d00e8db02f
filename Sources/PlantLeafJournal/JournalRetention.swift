/// Retention: enforced in small steps as readings arrive, so no step holds a reading up for long.
extension Journal {
    /// What one enforcement removed.
    public struct RetentionOutcome: Sendable, Equatable {
        public var readings = 0
        public var pictures = 0
        public var events = 0
    }

    /// Readings deleted in one statement at most: a few milliseconds of work on a Pi.
    static let deletionBatch = 2_000

    /// What the write-ahead log's index (the -shm file) takes: 32 KiB for a log of up to 4 MiB.
    static let sharedMemoryBytes: Int64 = 32 << 10

    /// The size the journal's own file is held to under `policy`: its maximum less the
    /// write-ahead log's share and its index, so the three files together stay within it.
    static func mainFileLimit(_ policy: RetentionPolicy) -> Int64 {
        policy.maxBytes - writeAheadLogShare(maxBytes: policy.maxBytes) - sharedMemoryBytes
    }

    /// Readings deleted in one statement under `policy`: a small journal deletes fewer at a
    /// time, so one deletion's pages in the write-ahead log stay a small part of its size.
    static func deletionBatchSize(_ policy: RetentionPolicy) -> Int64 {
        Int64(min(deletionBatch, max(100, Int(policy.maxBytes / 4_000))))
    }

    /// The file's size as SQLite counts it: its pages, free ones included.
    public func fileBytes() throws(JournalError) -> Int64 {
        try database.integer("PRAGMA page_count", step: "measuring") * database.integer("PRAGMA page_size", step: "measuring")
    }

    /// The bytes its pages in use take.
    public func usedBytes() throws(JournalError) -> Int64 {
        let pages = try database.integer("PRAGMA page_count", step: "measuring") - database.integer("PRAGMA freelist_count", step: "measuring")
        return pages * (try database.integer("PRAGMA page_size", step: "measuring"))
    }

    /// Deletes what `policy` no longer keeps at `now` (a reading's own picture always with it):
    /// readings and ended events older than its days; then, while the file is over its size, the oldest of the readings and the pictures
    /// (events' and the day's strip; a reading before a picture of the same time), then the oldest ended events, down
    /// to nine tenths of the size (so it is not at work on every reading), and gives the freed
    /// pages back to the file system. The size counts the write-ahead log's share: the log is
    /// checkpointed and emptied whenever it holds more than that.
    @discardableResult
    public func enforce(_ policy: RetentionPolicy, now: JournalTime) throws(JournalError) -> RetentionOutcome {
        var outcome = RetentionOutcome()
        let cutoff = now.milliseconds - Int64(policy.keepDays * 86_400_000)
        try database.transaction(step: "deleting old readings") { () throws(JournalError) in
            try database.query("DELETE FROM readings WHERE id IN (SELECT id FROM readings WHERE time < ? ORDER BY id LIMIT ?)",
                               [.integer(cutoff), .integer(Journal.deletionBatchSize(policy))], step: "deleting old readings")
            outcome.readings += Int(try database.integer("SELECT changes()", step: "deleting old readings"))
            outcome.pictures += try deletePicturesOfDeletedReadings()
            try database.query("DELETE FROM pictures WHERE event IN (SELECT id FROM events WHERE end IS NOT NULL AND end < ?)", [.integer(cutoff)],
                               step: "deleting old events")
            try database.query("DELETE FROM events WHERE end IS NOT NULL AND end < ?", [.integer(cutoff)], step: "deleting old events")
            try database.query("DELETE FROM snapshots WHERE hour < ?", [.integer(cutoff / Journal.hourMilliseconds)], step: "deleting old snapshots")
            outcome.events += Int(try database.integer("SELECT changes()", step: "deleting old events"))
        }
        let limit = Journal.mainFileLimit(policy)
        guard try fileBytes() > limit else {
            if outcome != RetentionOutcome() { try database.execute("PRAGMA incremental_vacuum", step: "freeing pages") }
            try checkpointIfOver(maxBytes: policy.maxBytes)
            return outcome
        }
        let target = limit / 10 * 9
        while try usedBytes() > target {
            // Oldest first; of a reading and a picture of the same time, the reading goes first.
            let never: Int64 = .max
            let eventPicture = try database.integer("SELECT coalesce(min(start), \(never)) FROM events JOIN pictures ON event = id",
                                                    step: "keeping the journal under its size")
            let snapshot = try database.integer("SELECT coalesce(min(hour) * \(Journal.hourMilliseconds), \(never)) FROM snapshots",
                                                step: "keeping the journal under its size")
            try database.query("DELETE FROM readings WHERE id IN (SELECT id FROM readings WHERE time <= ? ORDER BY id LIMIT ?)",
                               [.integer(min(eventPicture, snapshot)), .integer(Journal.deletionBatchSize(policy))], step: "keeping the journal under its size")
            let readings = Int(try database.integer("SELECT changes()", step: "keeping the journal under its size"))
            outcome.readings += readings
            outcome.pictures += try deletePicturesOfDeletedReadings()
            if readings > 0 { continue }
            // A picture is up to 30 KB, so a few at a time: the day's strip or the events', the older first.
            if snapshot <= eventPicture, snapshot != never {
                try database.query("DELETE FROM snapshots WHERE id IN (SELECT id FROM snapshots ORDER BY hour LIMIT 5)", step: "keeping the journal under its size")
            } else {
                // Events are numbered in the order they start.
                try database.query("DELETE FROM pictures WHERE event IN (SELECT event FROM pictures ORDER BY event LIMIT 5)",
                                   step: "keeping the journal under its size")
            }
            let pictures = Int(try database.integer("SELECT changes()", step: "keeping the journal under its size"))
            outcome.pictures += pictures
            if pictures > 0 { continue }
            // Neither readings nor pictures left to go: the events that ended, oldest first.
            try database.query("DELETE FROM events WHERE id IN (SELECT id FROM events WHERE end IS NOT NULL AND id NOT IN (SELECT event FROM pictures) ORDER BY id LIMIT ?)",
                               [.integer(Int64(Journal.deletionBatch))], step: "keeping the journal under its size")
            let events = Int(try database.integer("SELECT changes()", step: "keeping the journal under its size"))
            outcome.events += events
            if events == 0 { break }
        }
        try database.execute("PRAGMA incremental_vacuum", step: "freeing pages")
        try checkpointIfOver(maxBytes: policy.maxBytes)
        return outcome
    }

    /// Deletes the pictures of readings no longer kept: a reading's picture goes with it. Returns
    /// how many. The table holds only the uploads' pictures, so this reads few rows.
    private func deletePicturesOfDeletedReadings() throws(JournalError) -> Int {
        try database.query("DELETE FROM reading_pictures WHERE NOT EXISTS (SELECT 1 FROM readings WHERE id = reading)",
                           step: "deleting readings' pictures")
        return Int(try database.integer("SELECT changes()", step: "deleting readings' pictures"))
    }
}
