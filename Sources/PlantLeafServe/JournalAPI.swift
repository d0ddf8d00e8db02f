import PlantLeafCore
import PlantLeafJournal

/// `/api/history` and `/api/events` from the journal, a page at a time: `since` and `until`
/// (ISO 8601, or a date), `source` (a camera, or "upload"), `after` (the `next_after` of the
/// page before) and `limit` (rows a page).
enum JournalAPI {
    /// Rows a page without `limit`, and the most with it.
    static let defaultLimit = 200, maximumLimit = 1000
    /// The history without `since`: the last week.
    static let defaultHistoryMilliseconds: Int64 = 7 * 86_400_000

    /// The selection a request's query asks for; a message saying which parameter is wrong otherwise.
    static func selection(_ query: [String: String], now: JournalTime, defaultSpan: Int64?) -> Result<Journal.Selection, QueryError> {
        var selection = Journal.Selection(limit: defaultLimit)
        for (name, keyPath) in [("since", \Journal.Selection.since), ("until", \.until)] {
            guard let text = query[name] else { continue }
            guard let time = JournalTime(iso8601: text) else { return .failure(QueryError("\(name) must be ISO 8601 (2026-12-02 or 2026-12-02T06:40:00+01:00), got '\(text)'")) }
            selection[keyPath: keyPath] = time
        }
        if selection.since == nil, let defaultSpan { selection.since = JournalTime(milliseconds: now.milliseconds - defaultSpan, offsetMinutes: now.offsetMinutes) }
        selection.source = query["source"]
        if let text = query["after"] {
            guard let after = Int64(text), after >= 0 else { return .failure(QueryError("after must be a row number, got '\(text)'")) }
            selection.afterID = after
        }
        if let text = query["limit"] {
            guard let limit = Int(text), (1...maximumLimit).contains(limit) else {
                return .failure(QueryError("limit must be a whole number from 1 to \(maximumLimit), got '\(text)'"))
            }
            selection.limit = limit
        }
        return .success(selection)
    }

    struct QueryError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// The readings of the selection, with the counts by verdict per day over all of it.
    static func history(_ journal: Journal, _ selection: Journal.Selection, now: JournalTime) throws(JournalError) -> String {
        let readings = try journal.readingPage(selection)
        var whole = selection
        whole.afterID = nil
        let days = try journal.verdictCounts(whole, periodMilliseconds: 86_400_000, offsetMinutes: now.offsetMinutes)
        return JournalJSON.page("readings", rows: readings.rows.map { JournalJSON.reading($0, linkingPicture: true) }, nextAfter: readings.nextAfter,
                                extra: [("days", JournalJSON.counts(days))])
    }

    /// The events of the selection, newest first.
    static func events(_ journal: Journal, _ selection: Journal.Selection, now: JournalTime) throws(JournalError) -> String {
        let events = try journal.eventPage(selection)
        return JournalJSON.page("events", rows: events.rows.map { JournalJSON.event($0, now: now) }, nextAfter: events.nextAfter)
    }
}

/// Serve's readers for the fuzzer, which sees the package's surface only.
package enum ServeFuzzing {
    /// What serve answers from `journal` at `now`: /api/history, /api/events and the /history page.
    package static func journalAnswers(_ journal: Journal, now: JournalTime) throws(JournalError) -> [String] {
        let everything = Journal.Selection(limit: JournalAPI.maximumLimit)
        return [try JournalAPI.history(journal, everything, now: now), try JournalAPI.events(journal, everything, now: now),
                String(decoding: try JournalPage.page(journal, source: nil, now: now, keepsUploadPhotos: true, catalogue: .english).body, as: UTF8.self)]
    }
}
