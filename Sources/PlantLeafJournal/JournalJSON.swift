import PlantLeafCore

/// The journal's rows as JSON, for `/api/history`, `/api/events` and `plantleaf journal export`.
public enum JournalJSON {
    /// A reading as its record's JSON line with "id" and "source" added at the end: what an
    /// export writes and an import (like any reader of records) reads back. `linkingPicture`
    /// (the API's) adds "picture", where a reading that has one serves it: an export has no server.
    public static func reading(_ reading: JournalReading, linkingPicture: Bool = false) -> String {
        let record = reading.record.json
        let picture = linkingPicture && reading.hasPicture ? ", \"picture\": \"/api/readings/picture?id=\(reading.id)\"" : ""
        return String(record.dropLast()) + ", \"id\": \(reading.id), \"source\": \(JSONObject.quote(reading.source))\(picture)}"
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
        if event.hasPicture { object.add("picture", "/api/events/picture?id=\(event.id)") } else { object.addNull("picture") }
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

    /// The CSV header and a reading's row: time, source, verdict, reason, top class, its score,
    /// leaf-likeness, prepare and invoke milliseconds.
    public static let csvHeader = "id,time,source,verdict,reason,label,score,leaf_likeness,prepare_ms,invoke_ms"

    public static func csvRow(_ reading: JournalReading) -> String {
        let record = reading.record
        let field = ClassificationOutput.csvField
        let number = { (value: Double?, decimals: Int) in value.map { DecimalText.shortest($0, decimals: decimals) ?? "" } ?? "" }
        return [String(reading.id), reading.time.iso8601, field(reading.source), record.verdict.rawValue, record.reason?.rawValue ?? "",
                field(record.top.first?.label ?? ""), number(record.top.first?.score, 6), number(record.secondOpinion.leafLikeness, 4),
                number(record.timings.prepare, 3), number(record.timings.invoke, 3)].joined(separator: ",")
    }
}
