import PlantLeafCore
import PlantLeafJournal
import PlantLeafSupport

/// `/history` from the journal: what changed and since when. The events newest first, each with
/// the frame that started it, its class in words, start, end and duration; then one table of the
/// readings per day (the last two weeks) and per week (the last eight), each row with its bar;
/// between them, each camera's last day as a strip of one frame an hour, and the newest uploads'
/// pictures when serve keeps them.
/// Everything is HTML text in the page's own type size, so it reads on a phone as on a desk;
/// the bars are SVG shapes without text, and the page needs no script. Its markup is the
/// templates under Embedded/ (journal.html and its pieces); here are the values put in, escaped.
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
        let changes: String
        if source == "upload" {
            // Uploads make no events: their own results instead, newest first.
            changes = try uploadReadings(journal, now: now, catalogue: catalogue)
        } else {
            let events = try journal.events(Journal.Selection(source: source, limit: eventCount))
            let list = events.isEmpty ? template("no-events.html", catalogue)
                : template("timeline.html", catalogue, ["items": PageTemplate.lineByLine(events.map { event($0, now: now, catalogue: catalogue, corrections: corrections) })])
            changes = template("events.html", catalogue, ["events": list])
        }
        let body = template("journal.html", catalogue, [
            "sources": sourceLinks(try journal.sourceNames(), chosen: source, catalogue: catalogue),
            "uploads-kept": escaped(catalogue[keepsUploadPhotos ? "journal.uploads-kept-photo" : "journal.uploads-kept"]),
            "day-lines": try dayLines(journal, source: source, now: now, catalogue: catalogue),
            "changes": changes,
            "strips": try strips(journal, source: source, now: now, catalogue: catalogue),
            "upload-pictures": source == nil || source == "upload" ? try uploadPictures(journal, now: now, catalogue: catalogue, corrections: corrections) : "",
            "table": try table(journal, source: source, now: now, catalogue: catalogue),
        ])
        let text = WebAssets.document(catalogue, title: catalogue["page.title.history"], head: WebAssets.linkedAssets + WebAssets.correctionScriptTag + ViewerClock.drawnAt(now), page: "/history", main: body)
        return HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: Array(text.utf8))
    }

    private static func template(_ name: String, _ catalogue: Catalogue, _ values: [String: String] = [:]) -> String {
        PageTemplate.serve.render(name, catalogue, values)
    }

    private static func sourceLinks(_ names: [String], chosen: String?, catalogue: Catalogue) -> String {
        let choices: [(String, String?)] = [(catalogue["journal.all"], nil)] + names.map { ($0 == "upload" ? catalogue["journal.uploads"] : $0, $0) }
        return choices.map { label, value in
            let address = value.map { "/history?source=" + percentEncoded($0) } ?? "/history"
            // A camera's name is the grower's, in any direction of writing: isolated from the page's.
            let name = value == nil || value == "upload" ? escaped(label) : template("isolated.html", catalogue, ["text": escaped(label)])
            return value == chosen ? template("source-chosen.html", catalogue, ["name": name])
                : template("source-link.html", catalogue, ["address": escaped(address), "name": name])
        }.joined(separator: " · ")
    }

    private static func event(_ event: JournalEvent, now: JournalTime, catalogue: Catalogue, corrections: Corrections?) -> String {
        let name = event.state.label.map { catalogue.className($0) } ?? catalogue.heading(event.state.verdict)
        let picture = event.hasPicture ? template("event-picture.html", catalogue, ["address": JournalPicture.event.address(id: event.id)]) : ""
        let duration = TimeText.duration(event.durationMilliseconds(now: now), in: catalogue), start = TimeText.readable(viewers(event.start, now), in: catalogue)
        let span = event.end.map { catalogue.text("journal.ended", ["start": start, "end": TimeText.readable(viewers($0, now), in: catalogue), "duration": duration]) }
            ?? catalogue.text("journal.lasting", ["start": start, "duration": duration])
        let blocked = event.blockedMilliseconds(now: now)
        let gap = blocked > 0 || event.viewBlockedNow
            ? " · " + escaped(catalogue.text(event.viewBlockedNow ? "journal.blocked-now" : "journal.blocked", ["duration": TimeText.duration(blocked, in: catalogue)])) : ""
        // The event's picture, named right by the grower, becomes a lesson.
        let correction = event.hasPicture ? corrections?.form(picture: JournalPicture.event.address(id: event.id), catalogue: catalogue) ?? "" : ""
        return template("event.html", catalogue, [
            "picture": picture, "meaning": ReadingMeaning(verdict: event.state.verdict, label: event.state.label).rawValue, "name": escaped(name),
            "problem": event.state.isProblem ? " " + escaped(catalogue["journal.problem"]) : "",
            "span": escaped(span), "gap": gap, "source": escaped(event.source), "correct": correction,
        ])
    }

    /// `time` at the viewer's offset, `now`'s: every time on the page is on the viewer's clock.
    static func viewers(_ time: JournalTime, _ now: JournalTime) -> JournalTime { JournalTime(milliseconds: time.milliseconds, offsetMinutes: now.offsetMinutes) }

    /// The newest uploads' results, newest first: what each was read as (coloured by what it
    /// means) and when, on the viewer's clock.
    private static func uploadReadings(_ journal: Journal, now: JournalTime, catalogue: Catalogue) throws(JournalError) -> String {
        let uploads = try journal.newestReadings(source: "upload", limit: eventCount)
        guard !uploads.isEmpty else { return template("upload-results.html", catalogue, ["results": template("no-uploads.html", catalogue)]) }
        let items = uploads.map { upload in
            let record = upload.record, label = record.top.first?.label
            let name = record.verdict == .diagnosis ? label.map { catalogue.className($0) } ?? catalogue.heading(record.verdict) : catalogue.heading(record.verdict)
            return template("upload-result.html", catalogue, ["meaning": ReadingMeaning(verdict: record.verdict, label: label).rawValue, "name": escaped(name),
                                                              "time": escaped(TimeText.readable(viewers(upload.time, now), in: catalogue))])
        }
        return template("upload-results.html", catalogue, ["results": template("uploads.html", catalogue, ["items": PageTemplate.lineByLine(items)])])
    }

    /// The last day, hour by hour: each camera's first frame of each hour, to see the plant change.
    private static func strips(_ journal: Journal, source: String?, now: JournalTime, catalogue: Catalogue) throws(JournalError) -> String {
        let cameras = try journal.sourceNames().filter { $0 != "upload" && (source == nil || $0 == source) }
        var sections: [String] = []
        for camera in cameras {
            let frames = try journal.strip(source: camera, since: JournalTime(milliseconds: now.milliseconds - 86_400_000, offsetMinutes: now.offsetMinutes))
            guard !frames.isEmpty else { continue }
            let pictures = frames.map { frame in
                let hour = JournalTime(milliseconds: frame.hour.milliseconds, offsetMinutes: now.offsetMinutes)
                return template("strip-picture.html", catalogue, ["address": JournalPicture.snapshot.address(id: frame.id), "label": String(hour.iso8601.dropFirst(11).prefix(5))])
            }
            sections.append(template("strip.html", catalogue, ["title": isolating(catalogue, "journal.strip", ["camera": camera]), "pictures": pictures.joined(separator: " ")]))
        }
        return PageTemplate.lineByLine(sections)
    }

    /// The newest uploads' pictures, kept with --keep-upload-photos (or before it was left off),
    /// oldest first as the strip is; nothing when there are none.
    /// With corrections, each picture is a line of a list with its time and its correction form.
    private static func uploadPictures(_ journal: Journal, now: JournalTime, catalogue: Catalogue, corrections: Corrections?) throws(JournalError) -> String {
        let uploads = try journal.readingsWithPictures(source: "upload", limit: uploadPictureCount)
        guard !uploads.isEmpty else { return "" }
        if let corrections {
            let items = uploads.map { upload in
                let address = JournalPicture.reading.address(id: upload.id)
                return template("kept-upload.html", catalogue, ["address": address, "time": escaped(TimeText.readable(viewers(upload.time, now), in: catalogue)),
                                                                "correct": corrections.form(picture: address, catalogue: catalogue)])
            }
            return template("kept-uploads.html", catalogue, ["items": PageTemplate.lineByLine(items)])
        }
        let pictures = uploads.map { upload in
            template("strip-picture.html", catalogue, ["address": JournalPicture.reading.address(id: upload.id),
                                                       "label": escaped(TimeText.readable(viewers(upload.time, now), in: catalogue))])
        }
        return template("strip.html", catalogue, ["title": escaped(catalogue["journal.upload-pictures"]), "pictures": pictures.joined(separator: " ")])
    }

    /// One table: a row a day, then a row a week, each with its bar and its counts by what the
    /// readings mean (healthy, a problem, not sure, nothing to see), under the colours' legend.
    private static func table(_ journal: Journal, source: String?, now: JournalTime, catalogue: Catalogue) throws(JournalError) -> String {
        let day: Int64 = 86_400_000
        let today = (now.milliseconds + Int64(now.offsetMinutes) * 60_000) / day * day - Int64(now.offsetMinutes) * 60_000
        let daily = try journal.meaningCounts(Journal.Selection(since: JournalTime(milliseconds: today - Int64(days - 1) * day, offsetMinutes: now.offsetMinutes),
                                                                source: source), periodMilliseconds: day, offsetMinutes: now.offsetMinutes)
        // Weeks from Monday: the epoch's day 0 was a Thursday, so periods counted from three days
        // later start on Mondays.
        let week = 7 * day
        let weekly = try journal.meaningCounts(Journal.Selection(since: JournalTime(milliseconds: today - Int64(weeks) * week, offsetMinutes: now.offsetMinutes),
                                                                 source: source), periodMilliseconds: week, offsetMinutes: now.offsetMinutes + 3 * 1440)
        let largest = max(1, (daily + weekly).map { $0.counts.values.reduce(0, +) }.max() ?? 1)
        // Three columns, the counts in words in the last: a column a verdict is wider than a phone.
        var rows: [String] = []
        for (title, periods) in [(catalogue["journal.per-day"], daily), (catalogue["journal.per-week"], weekly)] {
            rows.append(template("period-row.html", catalogue, ["title": escaped(title)]))
            for row in periods {
                let start = JournalTime(milliseconds: row.periodStart.milliseconds, offsetMinutes: now.offsetMinutes)
                rows.append(template("reading-row.html", catalogue, ["day": escaped(TimeText.day(start, in: catalogue)), "bar": bar(row.counts, largest: largest, catalogue: catalogue),
                                                                     "counts": escaped(countsText(row.counts, catalogue))]))
            }
        }
        return template("readings.html", catalogue, ["legend": legend(catalogue), "rows": PageTemplate.lineByLine(rows)])
    }

    /// "400 healthy, 24 with a problem, 3 not sure": each meaning there is, counted in words.
    static func countsText(_ counts: [ReadingMeaning: Int], _ catalogue: Catalogue) -> String {
        ReadingMeaning.allCases.compactMap { meaning in counts[meaning].map { catalogue.count(meaning.rawValue, $0) } }
            .joined(separator: catalogue["list.separator"])
    }

    /// What each colour of the bars and the day lines means.
    static func legend(_ catalogue: Catalogue) -> String {
        template("legend.html", catalogue, ["items": ReadingMeaning.allCases.map { meaning in
            template("legend-item.html", catalogue, ["swatch": swatch(meaning), "name": escaped(catalogue["meaning." + meaning.rawValue + ".name"])])
        }.joined()])
    }

    static func swatch(_ meaning: ReadingMeaning) -> String {
        PageTemplate.serve.render("meaning-swatch.html", ["colour": HistoryPage.colours[meaning]!])
    }

    /// The readings of a row as a stacked bar, its length the row's count against the largest.
    private static func bar(_ counts: [ReadingMeaning: Int], largest: Int, catalogue: Catalogue) -> String {
        var x = 0.0, parts = ""
        for meaning in ReadingMeaning.allCases {
            let width = 120 * Double(counts[meaning] ?? 0) / Double(largest)
            guard width > 0 else { continue }
            parts += template("reading-bar-part.html", catalogue, ["x": JSONObject.number(x, decimals: 1), "width": JSONObject.number(width, decimals: 1),
                                                                   "colour": HistoryPage.colours[meaning]!])
            x += width
        }
        return template("reading-bar.html", catalogue, ["counts": escaped(countsText(counts, catalogue)), "parts": parts])
    }

    /// The quarter hours of a day line: 24 hours of them.
    static let dayLineQuarters = 96

    /// Each camera's last 24 hours as one line of quarter hours, each coloured by what most of
    /// its readings meant (an empty quarter left blank), so the quarter a problem began stands
    /// out; the oldest at the start of the line (the right in Arabic), now at its end.
    private static func dayLines(_ journal: Journal, source: String?, now: JournalTime, catalogue: Catalogue) throws(JournalError) -> String {
        let cameras = try journal.sourceNames().filter { $0 != "upload" && (source == nil || $0 == source) }
        let quarter = 900_000 as Int64
        let end = (now.milliseconds / quarter + 1) * quarter, start = end - Int64(dayLineQuarters) * quarter
        var sections: [String] = []
        for camera in cameras {
            let counts = try journal.meaningCounts(Journal.Selection(since: JournalTime(milliseconds: start, offsetMinutes: 0), source: camera),
                                                   periodMilliseconds: quarter, offsetMinutes: 0)
            guard !counts.isEmpty else { continue }
            var quarters = [ReadingMeaning?](repeating: nil, count: dayLineQuarters)
            for row in counts {
                let index = Int((row.periodStart.milliseconds - start) / quarter)
                if quarters.indices.contains(index) { quarters[index] = ReadingMeaning.mostOf(row.counts) }
            }
            sections.append(template("day-line.html", catalogue, [
                "title": isolating(catalogue, "journal.day-line", ["camera": camera]),
                "summary": escaped(dayLineSummary(quarters, start: start, now: now, catalogue: catalogue)),
                "cells": dayLineCells(quarters, rightToLeft: catalogue.isRightToLeft),
                "hours": stride(from: 0, through: dayLineQuarters, by: 24).map { index in
                    template("day-line-hour.html", catalogue, ["clock": clock(JournalTime(milliseconds: start + Int64(index) * quarter, offsetMinutes: now.offsetMinutes))])
                }.joined(),
            ]))
        }
        return sections.isEmpty ? "" : PageTemplate.lineByLine(sections + [legend(catalogue)])
    }

    /// A rectangle a quarter with readings, in the order of writing: the first quarter at the
    /// left in English, at the right in Arabic.
    private static func dayLineCells(_ quarters: [ReadingMeaning?], rightToLeft: Bool) -> String {
        quarters.enumerated().compactMap { index, meaning in
            guard let meaning else { return nil }
            let x = (rightToLeft ? dayLineQuarters - 1 - index : index) * 10
            return PageTemplate.serve.render("day-line-cell.html", ["x": String(x), "colour": HistoryPage.colours[meaning]!, "meaning": meaning.rawValue])
        }.joined()
    }

    /// The line in words, for a screen reader: each run of quarters of one meaning, from when to when.
    private static func dayLineSummary(_ quarters: [ReadingMeaning?], start: Int64, now: JournalTime, catalogue: Catalogue) -> String {
        var runs: [(first: Int, last: Int, meaning: ReadingMeaning?)] = []
        for (index, meaning) in quarters.enumerated() {
            if let last = runs.last, last.meaning == meaning { runs[runs.count - 1].last = index } else { runs.append((index, index, meaning)) }
        }
        return runs.map { run in
            let from = JournalTime(milliseconds: start + Int64(run.first) * 900_000, offsetMinutes: now.offsetMinutes)
            let to = JournalTime(milliseconds: start + Int64(run.last + 1) * 900_000, offsetMinutes: now.offsetMinutes)
            return catalogue.text("journal.day-line.span", ["start": clock(from), "end": clock(to),
                                                            "meaning": run.meaning.map { catalogue["meaning." + $0.rawValue + ".name"] } ?? catalogue["journal.day-line.empty"]])
        }.joined(separator: catalogue["list.separator"])
    }

    /// "06:45", at the time's own offset.
    static func clock(_ time: JournalTime) -> String { String(time.iso8601.dropFirst(11).prefix(5)) }

    /// `key`'s text, escaped, each value put in a <bdi> of its own so that a name written left to
    /// right ("Greenhouse 1", "/dev/video0") keeps its order inside Arabic text and the text around it keeps its own.
    static func isolating(_ catalogue: Catalogue, _ key: String, _ values: [String: String]) -> String {
        let names = values.keys.sorted()
        var text = escaped(catalogue.text(key, Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, "\u{E000}\($0)\u{E001}") })))
        for (index, name) in names.enumerated() {
            text = text.replacing("\u{E000}\(index)\u{E001}", with: template("isolated.html", catalogue, ["text": escaped(values[name]!)]))
        }
        return text
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
