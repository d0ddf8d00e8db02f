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

    /// The file's size as SQLite counts it: its pages, free ones included.
    public func fileBytes() throws(JournalError) -> Int64 {
        try database.integer("PRAGMA page_count", step: "measuring") * database.integer("PRAGMA page_size", step: "measuring")
    }

    /// The bytes its pages in use take.
    public func usedBytes() throws(JournalError) -> Int64 {
        let pages = try database.integer("PRAGMA page_count", step: "measuring") - database.integer("PRAGMA freelist_count", step: "measuring")
        return pages * (try database.integer("PRAGMA page_size", step: "measuring"))
    }

    /// Deletes what `policy` no longer keeps at `now`: readings and ended events older than its
    /// days; then, while the file is over its size, the oldest readings, then the oldest events'
    /// pictures, then the oldest events, down to nine tenths of the size (so it is not at work on
    /// every reading), and gives the freed pages back to the file system.
    @discardableResult
    public func enforce(_ policy: RetentionPolicy, now: JournalTime) throws(JournalError) -> RetentionOutcome {
        var outcome = RetentionOutcome()
        let cutoff = now.milliseconds - Int64(policy.keepDays * 86_400_000)
        try database.transaction(step: "deleting old readings") { () throws(JournalError) in
            try database.query("DELETE FROM readings WHERE id IN (SELECT id FROM readings WHERE time < ? ORDER BY id LIMIT ?)",
                               [.integer(cutoff), .integer(Int64(Journal.deletionBatch))], step: "deleting old readings")
            outcome.readings += Int(try database.integer("SELECT changes()", step: "deleting old readings"))
            try database.query("DELETE FROM events WHERE end IS NOT NULL AND end < ?", [.integer(cutoff)], step: "deleting old events")
            outcome.events += Int(try database.integer("SELECT changes()", step: "deleting old events"))
        }
        guard try fileBytes() > policy.maxBytes else {
            if outcome != RetentionOutcome() { try database.execute("PRAGMA incremental_vacuum", step: "freeing pages") }
            return outcome
        }
        let target = policy.maxBytes / 10 * 9
        // A picture is up to 30 KB, a reading about 150 bytes: batches of like sizes.
        let steps = [("DELETE FROM readings WHERE id IN (SELECT id FROM readings ORDER BY id LIMIT ?)", Journal.deletionBatch, \RetentionOutcome.readings),
                     ("UPDATE events SET picture = NULL WHERE id IN (SELECT id FROM events WHERE picture IS NOT NULL ORDER BY id LIMIT ?)", 20, \.pictures),
                     ("DELETE FROM events WHERE id IN (SELECT id FROM events WHERE end IS NOT NULL ORDER BY id LIMIT ?)", Journal.deletionBatch, \.events)]
        for (sql, batch, counted) in steps {
            while try usedBytes() > target {
                try database.query(sql, [.integer(Int64(batch))], step: "keeping the journal under its size")
                let removed = Int(try database.integer("SELECT changes()", step: "keeping the journal under its size"))
                guard removed > 0 else { break }
                outcome[keyPath: counted] += removed
            }
        }
        try database.execute("PRAGMA incremental_vacuum", step: "freeing pages")
        return outcome
    }
}
