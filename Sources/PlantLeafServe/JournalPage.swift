import PlantLeafCore
import PlantLeafJournal

/// `/history` from the journal: what changed and since when. The events newest first, each with
/// the frame that started it, its class in words, start, end and duration; then one table of the
/// readings per day (the last two weeks) and per week (the last eight), each row with its bar;
/// between them, each camera's last day as a strip of one frame an hour, and the newest uploads'
/// pictures when serve keeps them.
/// Everything is HTML text in the page's own type size, so it reads on a phone as on a desk;
/// the bars are SVG shapes without text, and the page needs no script.
enum JournalPage {
    /// Events the page shows; older ones are in /api/events.
    static let eventCount = 30
    static let days = 14, weeks = 8
    /// Uploads' pictures the page shows: a strip's worth, as the day's strip has 24.
    static let uploadPictureCount = 24

    /// The page in `catalogue`'s language: its words, class and verdict names, dates and durations.
    static func page(_ journal: Journal, source: String?, now: JournalTime, keepsUploadPhotos: Bool, catalogue: Catalogue,
                     corrections: Corrections? = nil) throws(JournalError) -> HTTPResponse {
        // Where corrections are off the photo page says why; here the pictures stay as they are.
        let corrections = corrections.flatMap { $0.allowed ? $0 : nil }
        var body = "<nav><a href=\"/live\">\(escaped(catalogue["page.link.live"]))</a> · <a href=\"/\">\(escaped(catalogue["page.link.photo"]))</a></nav>\n"
        body += "<p>\(escaped(catalogue["journal.show"])) " + sourceLinks(try journal.sourceNames(), chosen: source, catalogue: catalogue) + "</p>\n"
        body += "<p class=\"hint\">\(escaped(catalogue[keepsUploadPhotos ? "journal.uploads-kept-photo" : "journal.uploads-kept"]))</p>\n"
        body += "<section>\n<h2>\(escaped(catalogue["journal.changed"]))</h2>\n"
        let events = try journal.events(Journal.Selection(source: source == "upload" ? nil : source, limit: eventCount))
        if events.isEmpty {
            body += "<p class=\"hint\">\(escaped(catalogue["journal.no-events"]))</p>\n"
        } else {
            body += "<ol id=\"timeline\">\n" + events.map { event($0, now: now, catalogue: catalogue, corrections: corrections) }.joined() + "</ol>\n"
        }
        body += "</section>\n" + (try strips(journal, source: source, now: now, catalogue: catalogue))
        if source == nil || source == "upload" { body += try uploadPictures(journal, catalogue: catalogue, corrections: corrections) }
        body += "<section>\n<h2>\(escaped(catalogue["history.readings"]))</h2>\n" + (try table(journal, source: source, now: now, catalogue: catalogue)) + "</section>\n"
        let text = WebAssets.document(catalogue, title: catalogue["page.title.history"], head: WebAssets.linkedAssets + WebAssets.correctionScriptTag, main: body)
        return HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: Array(text.utf8))
    }

    private static func sourceLinks(_ names: [String], chosen: String?, catalogue: Catalogue) -> String {
        let choices: [(String, String?)] = [(catalogue["journal.all"], nil)] + names.map { ($0 == "upload" ? catalogue["journal.uploads"] : $0, $0) }
        return choices.map { label, value in
            let address = value.map { "/history?source=" + percentEncoded($0) } ?? "/history"
            return value == chosen ? "<strong>\(escaped(label))</strong>" : "<a href=\"\(escaped(address))\">\(escaped(label))</a>"
        }.joined(separator: " · ")
    }

    private static func event(_ event: JournalEvent, now: JournalTime, catalogue: Catalogue, corrections: Corrections?) -> String {
        let name = event.state.label.map { catalogue.className($0) } ?? catalogue.heading(event.state.verdict)
        var text = "<li class=\"event\">"
        if event.hasPicture {
            text += "<img src=\"\(JournalPicture.event.address(id: event.id))\" width=\"112\" height=\"112\" alt=\"\(escaped(catalogue["journal.picture"]))\">"
        }
        text += "<strong class=\"\(event.state.isProblem ? "uncertain" : "diagnosis")\">\(escaped(name))</strong>"
        if event.state.isProblem { text += " " + escaped(catalogue["journal.problem"]) }
        let duration = TimeText.duration(event.durationMilliseconds(now: now), in: catalogue), start = TimeText.readable(event.start, in: catalogue)
        let span = event.end.map { catalogue.text("journal.ended", ["start": start, "end": TimeText.readable($0, in: catalogue), "duration": duration]) }
            ?? catalogue.text("journal.lasting", ["start": start, "duration": duration])
        let blocked = event.blockedMilliseconds(now: now)
        let gap = blocked > 0 || event.viewBlockedNow
            ? " · " + escaped(catalogue.text(event.viewBlockedNow ? "journal.blocked-now" : "journal.blocked", ["duration": TimeText.duration(blocked, in: catalogue)])) : ""
        // The event's picture, named right by the grower, becomes a lesson.
        let correction = event.hasPicture ? corrections?.form(picture: JournalPicture.event.address(id: event.id), catalogue: catalogue) ?? "" : ""
        return text + "<br>\(escaped(span))\(gap) · \(escaped(event.source))\(correction)</li>\n"
    }

    /// The last day, hour by hour: each camera's first frame of each hour, to see the plant change.
    private static func strips(_ journal: Journal, source: String?, now: JournalTime, catalogue: Catalogue) throws(JournalError) -> String {
        let cameras = try journal.sourceNames().filter { $0 != "upload" && (source == nil || $0 == source) }
        var text = ""
        for camera in cameras {
            let frames = try journal.strip(source: camera, since: JournalTime(milliseconds: now.milliseconds - 86_400_000, offsetMinutes: now.offsetMinutes))
            guard !frames.isEmpty else { continue }
            text += "<section>\n<h2>\(escaped(catalogue.text("journal.strip", ["camera": camera])))</h2>\n<p class=\"strip\">"
            text += frames.map { frame in
                let hour = JournalTime(milliseconds: frame.hour.milliseconds, offsetMinutes: now.offsetMinutes)
                let label = String(hour.iso8601.dropFirst(11).prefix(5))
                return "<img src=\"\(JournalPicture.snapshot.address(id: frame.id))\" width=\"72\" height=\"72\" alt=\"\(label)\" title=\"\(label)\">"
            }.joined(separator: " ") + "</p>\n</section>\n"
        }
        return text
    }

    /// The newest uploads' pictures, kept with --keep-upload-photos (or before it was left off),
    /// oldest first as the strip is; nothing when there are none.
    /// With corrections, each picture is a line of a list with its time and its correction form.
    private static func uploadPictures(_ journal: Journal, catalogue: Catalogue, corrections: Corrections?) throws(JournalError) -> String {
        let uploads = try journal.readingsWithPictures(source: "upload", limit: uploadPictureCount)
        guard !uploads.isEmpty else { return "" }
        if let corrections {
            let items = uploads.map { upload in
                let address = JournalPicture.reading.address(id: upload.id)
                return PageTemplate.render("kept-upload.html", catalogue, ["address": address, "time": escaped(TimeText.readable(upload.time, in: catalogue)),
                                                                           "correct": corrections.form(picture: address, catalogue: catalogue)])
            }
            return PageTemplate.render("kept-uploads.html", catalogue, ["items": items.joined()])
        }
        return "<section>\n<h2>\(escaped(catalogue["journal.upload-pictures"]))</h2>\n<p class=\"strip\">" + uploads.map { upload in
            let label = escaped(TimeText.readable(upload.time, in: catalogue))
            return "<img src=\"\(JournalPicture.reading.address(id: upload.id))\" width=\"72\" height=\"72\" alt=\"\(label)\" title=\"\(label)\">"
        }.joined(separator: " ") + "</p>\n</section>\n"
    }

    /// One table: a row a day, then a row a week, each with its bar and counts by verdict.
    private static func table(_ journal: Journal, source: String?, now: JournalTime, catalogue: Catalogue) throws(JournalError) -> String {
        let day: Int64 = 86_400_000
        let today = (now.milliseconds + Int64(now.offsetMinutes) * 60_000) / day * day - Int64(now.offsetMinutes) * 60_000
        let daily = try journal.verdictCounts(Journal.Selection(since: JournalTime(milliseconds: today - Int64(days - 1) * day, offsetMinutes: now.offsetMinutes),
                                                                source: source), periodMilliseconds: day, offsetMinutes: now.offsetMinutes)
        // Weeks from Monday: the epoch's day 0 was a Thursday, so periods counted from three days
        // later start on Mondays.
        let week = 7 * day
        let weekly = try journal.verdictCounts(Journal.Selection(since: JournalTime(milliseconds: today - Int64(weeks) * week, offsetMinutes: now.offsetMinutes),
                                                                 source: source), periodMilliseconds: week, offsetMinutes: now.offsetMinutes + 3 * 1440)
        let largest = max(1, (daily + weekly).map { $0.counts.values.reduce(0, +) }.max() ?? 1)
        // Three columns, the counts in words in the last: a column a verdict is wider than a phone.
        var text = "<table id=\"readings\">\n<thead><tr>" + ["journal.when", "history.readings", "journal.verdicts"].map { "<th>\(escaped(catalogue[$0]))</th>" }.joined()
            + "</tr></thead>\n<tbody>\n"
        for (title, rows) in [(catalogue["journal.per-day"], daily), (catalogue["journal.per-week"], weekly)] {
            text += "<tr><th colspan=\"3\">\(escaped(title))</th></tr>\n"
            for row in rows {
                let start = JournalTime(milliseconds: row.periodStart.milliseconds, offsetMinutes: now.offsetMinutes)
                let counts = Verdict.allCases.compactMap { verdict in row.counts[verdict].map { "\($0) " + catalogue["verdict." + verdict.rawValue + ".name"] } }
                text += "<tr><td>\(escaped(TimeText.day(start, in: catalogue)))</td><td>\(bar(row.counts, largest: largest))</td><td>\(escaped(counts.joined(separator: ", ")))</td></tr>\n"
            }
        }
        return text + "</tbody>\n</table>\n"
    }

    /// The readings of a row as a stacked bar, its length the row's count against the largest.
    private static func bar(_ counts: [Verdict: Int], largest: Int) -> String {
        var x = 0.0, text = "<svg width=\"120\" height=\"16\" viewBox=\"0 0 120 16\" role=\"img\" aria-label=\"\(counts.values.reduce(0, +)) readings\">"
        for verdict in Verdict.allCases {
            let width = 120 * Double(counts[verdict] ?? 0) / Double(largest)
            guard width > 0 else { continue }
            text += "<rect x=\"\(JSONObject.number(x, decimals: 1))\" width=\"\(JSONObject.number(width, decimals: 1))\" height=\"16\" fill=\"\(HistoryPage.colours[verdict]!)\"/>"
            x += width
        }
        return text + "</svg>"
    }

    static func escaped(_ text: String) -> String { HTMLText.escaped(text) }

    private static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            if (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || [0x2D, 0x2E, 0x5F, 0x2F].contains(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }
}
