import PlantLeafSupport

/// The three forms `plantleaf classify` writes a result in, and their schema:
/// - text: the path, then the verdict line (`verdictLine`), the reason's advice when it is not a
///   diagnosis, then one line per class: the score as a percentage with one decimal, and the
///   class's name (the leaf-likeness is in JSON and CSV; a skipped check is said once on
///   stderr);
/// - json: one `ReadingRecord` per line, the record every front end writes: "schema", "path"
///   (and "path_hex" when the name is not UTF-8), "verdict" (`Verdict`'s names: diagnosis,
///   uncertain, no-leaf, no-picture), "reason", "top" (rank order: "index", "label", "score"),
///   "leaf_likeness", "timing_ms" ("read", "prepare", "invoke", "postprocess", "generalist"); a
///   file that failed is {"schema", "path", "error"};
/// - csv: `csvHeader`, then the record flattened: one row per class of each image, each with the
///   image's verdict, times, reason and leaf-likeness, and last the class's name for people; paths escaped as in text,
///   labels with control or bidirectional formatting characters written as \xHH (JSON keeps them exact, escaped).
/// Text is in the catalogue's language; JSON and CSV keep their keys, columns and values in
/// every language but the words for people ("advice", "display").
/// The scores are the model's whatever the verdict.
/// The stage names are `StageTimings`'s, as in camera records and bench reports.
public enum ClassificationOutput {
    /// The output form: readable text, one JSON object a line, or CSV.
    public enum Format: String, Sendable, CaseIterable {
        case text, json, csv
    }

    /// The CSV's columns, `ReadingRecord.fields`' and `classFields`' with a place in classify's
    /// CSV, and its own: the class's rank in the record's "top", from 1.
    package static let csvColumns = ReadingCSV.columns(placedBy: \.classifyCSV, own: [("rank", 2)])
    public static let csvHeader = ReadingCSV.header(csvColumns)

    /// The verdict as a line of text: its name, and what it means for the scores beside it, so
    /// that only a diagnosis reads as an answer.
    public static func verdictLine(_ verdict: Verdict, in catalogue: Catalogue) -> String {
        catalogue["verdict." + verdict.rawValue + ".line"]
    }

    /// The lines for one classified file (no trailing newline).
    public static func record(_ result: Classification, path: PathName, format: Format, catalogue: Catalogue) -> String {
        switch format {
        case .text:
            var lines = [path.escaped, "  " + verdictLine(result.verdict, in: catalogue)]
            if let reason = result.reason { lines.append("  " + catalogue.advice(reason)) }
            if result.source == .lessons, let taught = result.taught {
                lines.append("  " + catalogue.text("teach.answer-line", ["class": TerminalText.neutralised(taught.className),
                                                                         "similarity": DecimalText.fixed(taught.similarity, decimals: 2)]))
            }
            for entry in result.top {
                let percent = DecimalText.fixed(entry.score * 100, decimals: 1)
                lines.append("  " + String(repeating: " ", count: max(0, 5 - percent.count)) + percent + "%  " + catalogue.className(entry.label))
            }
            return lines.joined(separator: "\n")
        case .json:
            return ReadingRecord(result, path: path).json(in: catalogue)
        case .csv:
            let record = ReadingRecord(result, path: path)
            return record.top.enumerated().map { rank, entry in
                ReadingCSV.row(csvColumns, record: record, scored: entry, own: [String(rank + 1)], catalogue: catalogue)
            }.joined(separator: "\n")
        }
    }

    /// The record for a file that could not be classified, in formats that carry one on stdout
    /// (JSON); text and CSV say it on stderr only.
    public static func failureRecord(path: PathName, reason: String, format: Format) -> String? {
        guard format == .json else { return nil }
        let name = ReadingRecord.pathMembers(path)
        var object = JSONObject()
        object.add("schema", ReadingRecord.schema)
        object.add("path", name.path)
        if let hex = name.hex { object.add("path_hex", hex) }
        object.add("error", reason)
        return object.text
    }

    /// RFC 4180: quote fields holding commas, quotes or line breaks; double inner quotes.
    package static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }
}
