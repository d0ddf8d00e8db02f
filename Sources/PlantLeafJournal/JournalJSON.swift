import PlantLeafCore
import PlantLeafSupport

/// The journal's rows as JSON, for `/api/history`, `/api/events` and `plantleaf journal export`.
public enum JournalJSON {
    /// A reading as its record's JSON line with "id" and "source" added at the end: what an
    /// export writes and an import (like any reader of records) reads back. `linkingPicture`
    /// (the API's) adds "picture", where a reading that has one serves it: an export has no server.
    public static func reading(_ reading: JournalReading, linkingPicture: Bool = false) -> String {
        var object = reading.record.jsonObject(in: .english)
        object.add("id", Int(reading.id))
        object.add("source", reading.source)
        if linkingPicture && reading.hasPicture { object.add("picture", JournalPicture.reading.address(id: reading.id)) }
        return object.text
    }

    /// An event: its state in words and as the model names it, start, end and duration, the part
    /// of it the view was blocked, and where its picture is.
    public static func event(_ event: JournalEvent, now: JournalTime) -> String {
        var object = JSONObject()
        object.add("id", Int(event.id))
        object.add("source", event.source)
        object.add("verdict", event.state.verdict.rawValue)
        if let label = event.state.label {
            object.add("label", label)
            object.add("name", Labels.displayName(label))
        }
        object.add("problem", event.state.isProblem)
        object.add("start", event.start.iso8601)
        if let end = event.end { object.add("end", end.iso8601) } else { object.addNull("end") }
        object.add("duration_s", Double(event.durationMilliseconds(now: now)) / 1000, decimals: 0)
        // Of that, how long the camera saw no leaf or no picture (the event went on through it), and whether it does now.
        object.add("blocked_s", Double(event.blockedMilliseconds(now: now)) / 1000, decimals: 0)
        object.add("view_blocked", event.viewBlockedNow)
        if event.hasPicture { object.add("picture", JournalPicture.event.address(id: event.id)) } else { object.addNull("picture") }
        return object.text
    }

    /// A page of rows: {"<name>": [...], "next_after": the id to ask the next page after, or null}.
    public static func page(_ name: String, rows: [String], nextAfter: Int64?, extra: [(String, String)] = []) -> String {
        var object = JSONObject()
        for (key, json) in extra { object.add(key, json: json) }
        object.add(name, json: "[" + rows.joined(separator: ",\n") + "]")
        if let nextAfter { object.add("next_after", Int(nextAfter)) } else { object.addNull("next_after") }
        return object.text
    }

    /// Counts of readings by verdict per period: [{"start": ..., "diagnosis": n, ...}].
    public static func counts(_ rows: [(periodStart: JournalTime, counts: [Verdict: Int])]) -> String {
        "[" + rows.map { row in
            var object = JSONObject()
            object.add("start", row.periodStart.iso8601)
            for verdict in Verdict.allCases { object.add(verdict.rawValue, row.counts[verdict] ?? 0) }
            return object.text
        }.joined(separator: ", ") + "]"
    }

    /// The CSV: a row per reading, its members with a place in the journal's CSV
    /// (`ReadingRecord.fields`: time, verdict, reason, the best class's label and score,
    /// leaf-likeness, prepare and invoke milliseconds) and the journal's own columns, the row's
    /// number first and the source after the time.
    static let csvColumns = ReadingCSV.columns(placedBy: \.journalCSV, own: [("id", 0), ("source", 2)])
    public static let csvHeader = ReadingCSV.header(csvColumns)

    public static func csvRow(_ reading: JournalReading) -> String {
        ReadingCSV.row(csvColumns, record: reading.record, scored: reading.record.top.first,
                       own: [String(reading.id), ClassificationOutput.csvField(TerminalText.neutralised(reading.source))], catalogue: .english)
    }
}
