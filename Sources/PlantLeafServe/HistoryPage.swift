import PlantLeafCore
import PlantLeafJournal

/// The history of the camera's readings as `/api/history` (JSON) and `/history` (a page with a
/// chart per window, drawn here as SVG so the page needs no script, and the counts as tables).
enum HistoryPage {
    /// The colours of what readings mean, in every chart, bar, day line and legend: healthy
    /// green, a problem red, not sure amber, nothing to see grey.
    static let colours: [ReadingMeaning: String] = [.healthy: "#1b7a34", .problem: "#c62828", .notSure: "#e8a200", .nothing: "#9e9e9e"]

    static func json(_ summary: ReadingHistory.Summary) -> String {
        var object = JSONObject()
        for window in [summary.day, summary.week] { object.add(window.name, windowObject(window)) }
        if let earliest = summary.earliest { object.add("earliest", WallClock.utcISO8601(nanoseconds: earliest * 1_000_000_000)) } else { object.addNull("earliest") }
        object.add("log_truncated", summary.truncated)
        object.add("unreadable_lines", summary.unreadableLines)
        return object.text
    }

    private static func windowObject(_ window: ReadingHistory.Window) -> JSONObject {
        var object = JSONObject()
        object.add("from", WallClock.utcISO8601(nanoseconds: window.start * 1_000_000_000))
        object.add("bucket_hours", Int(window.bucketSeconds / 3600))
        object.add("verdicts", counts(window.verdicts))
        object.add("buckets", objects: window.buckets.map { counts($0) })
        let diagnoses = mostDiagnosed(window).map { entry -> JSONObject in
            var item = JSONObject()
            item.add("label", entry.label)
            item.add("count", entry.count)
            return item
        }
        object.add("diagnoses", objects: diagnoses)
        return object
    }

    private static func counts(_ verdicts: [Verdict: Int]) -> JSONObject {
        var object = JSONObject()
        for verdict in Verdict.allCases { object.add(verdict.rawValue, verdicts[verdict, default: 0]) }
        return object
    }

    /// The classes diagnosed in the window, most often first (ties by name), at most ten.
    static func mostDiagnosed(_ window: ReadingHistory.Window) -> [(label: String, count: Int)] {
        window.diagnoses.map { (label: $0.key, count: $0.value) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.label < $1.label }
            .prefix(10).map { $0 }
    }

    /// The page in `catalogue`'s language: a section per window, or `problem` (the server's
    /// words, as the log said them).
    /// Its times are at `now`'s offset, the viewer's.
    static func page(_ summary: ReadingHistory.Summary?, problem: String?, now: JournalTime, catalogue: Catalogue) -> HTTPResponse {
        var body = ""
        if let problem {
            body = "<p class=\"error\" role=\"alert\">\(escaped(problem))</p>\n"
        } else if let summary {
            for window in [summary.day, summary.week] { body += section(window, offsetMinutes: now.offsetMinutes, catalogue) }
            if summary.truncated, let earliest = summary.earliest {
                body += "<p class=\"hint\">" + escaped(catalogue.text("history.truncated", ["mebibytes": String(ReadingHistory.tailBytes >> 20),
                                                                                           "time": TimeText.readable(JournalTime(milliseconds: earliest * 1000, offsetMinutes: now.offsetMinutes), in: catalogue)]))
                    + "</p>\n"
            }
            if summary.unreadableLines > 0 {
                body += "<p class=\"hint\">" + escaped(catalogue.text("history.unreadable", ["count": String(summary.unreadableLines)])) + "</p>\n"
            }
        }
        let navigation = "<nav><a href=\"/live\">\(escaped(catalogue["page.link.live"]))</a> · <a href=\"/\">\(escaped(catalogue["page.link.photo"]))</a></nav>\n"
        let text = WebAssets.document(catalogue, title: catalogue["page.title.history"], head: WebAssets.linkedAssets + ViewerClock.drawnAt(now), page: "/history", main: navigation + body)
        return HTTPResponse(status: problem == nil ? 200 : 404, contentType: "text/html; charset=utf-8", body: Array(text.utf8))
    }

    private static func section(_ window: ReadingHistory.Window, offsetMinutes: Int, _ catalogue: Catalogue) -> String {
        let title = catalogue[window.name == "day" ? "history.day" : "history.week"]
        var text = "<section>\n<h2>\(escaped(title))</h2>\n" + chart(window, offsetMinutes: offsetMinutes, catalogue)
        text += "<table><thead><tr><th>\(escaped(catalogue["history.verdict"]))</th><th>\(escaped(catalogue["history.readings"]))</th></tr></thead><tbody>\n"
        for meaning in ReadingMeaning.allCases {
            text += "<tr><td>\(JournalPage.swatch(meaning)) \(escaped(catalogue["meaning." + meaning.rawValue + ".name"]))</td>"
                + "<td>\(catalogue.number(window.meanings[meaning, default: 0]))</td></tr>\n"
        }
        text += "</tbody></table>\n"
        let diagnosed = mostDiagnosed(window)
        if !diagnosed.isEmpty {
            text += "<h3>\(escaped(catalogue["history.diagnosed"]))</h3>\n<ol>\n"
                + diagnosed.map { "<li>\(escaped(catalogue.className($0.label))): \(catalogue.number($0.count))</li>\n" }.joined() + "</ol>\n"
        }
        return text + "</section>\n"
    }

    /// Stacked bars, one per bucket, what the readings mean in `ReadingMeaning.allCases` order from the bottom.
    private static func chart(_ window: ReadingHistory.Window, offsetMinutes: Int, _ catalogue: Catalogue) -> String {
        let width = 720, height = 220, top = 10, bottom = 190, left = 40
        let barSlot = Double(width - left) / Double(window.buckets.count)
        let largest = max(1, window.buckets.map { $0.values.reduce(0, +) }.max() ?? 1)
        let total = window.verdicts.values.reduce(0, +)
        var text = "<svg class=\"chart\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-labelledby=\"\(window.name)-title\">\n"
        let title = catalogue.text("history.chart." + window.name, ["hours": catalogue.count("hour", Int(window.bucketSeconds / 3600)), "total": catalogue.number(total)])
        text += "<title id=\"\(window.name)-title\">\(escaped(title))</title>\n"
        text += "<line x1=\"\(left)\" y1=\"\(bottom)\" x2=\"\(width)\" y2=\"\(bottom)\" stroke=\"#000\"/>\n"
        text += "<text x=\"\(left - 6)\" y=\"\(top + 12)\" text-anchor=\"end\" font-size=\"14\">\(largest)</text>\n"
        text += "<text x=\"\(left - 6)\" y=\"\(bottom)\" text-anchor=\"end\" font-size=\"14\">0</text>\n"
        for (index, bucket) in window.meaningBuckets.enumerated() {
            let x = Double(left) + Double(index) * barSlot
            var y = Double(bottom)
            for meaning in ReadingMeaning.allCases {
                let count = bucket[meaning, default: 0]
                guard count > 0 else { continue }
                let barHeight = Double(bottom - top) * Double(count) / Double(largest)
                y -= barHeight
                text += "<rect x=\"\(number(x + 1))\" y=\"\(number(y))\" width=\"\(number(max(1, barSlot - 2)))\" height=\"\(number(barHeight))\" "
                    + "fill=\"\(colours[meaning]!)\"><title>\(escaped(catalogue.count(meaning.rawValue, count)))</title></rect>\n"
            }
            // A label under every sixth hour's bar (day), or at each day's first bar (week).
            let bucketStart = window.start + Int64(index) * window.bucketSeconds
            let labelled = window.name == "day" ? index % 6 == 0 : index % 4 == 0
            if labelled {
                let local = JournalTime(milliseconds: bucketStart * 1000, offsetMinutes: offsetMinutes).iso8601
                let label = window.name == "day" ? String(local.dropFirst(11).prefix(5)) : String(local.dropFirst(5).prefix(5))
                text += "<text x=\"\(number(x + 1))\" y=\"\(bottom + 20)\" font-size=\"14\">\(label)</text>\n"
            }
        }
        return text + "</svg>\n"
    }

    private static func number(_ value: Double) -> String { JSONObject.number(value, decimals: 1) }

    private static func escaped(_ text: String) -> String { HTMLText.escaped(text) }
}
