import Foundation
import PlantLeafCore
import PlantLeafJournal
@testable import PlantLeafServe
import PlantLeafTestSupport
import Testing

/// The history tells healthy leaves from problems: the journal counts diagnoses by class (kept as
/// readings are written, and from the readings at a selection's ragged ends, and for readings
/// written before version 5), and the page colours, counts and draws a day line by what the
/// readings mean, in either direction of writing.
@Suite struct HistoryMeaningTests {
    static func reading(_ time: JournalTime, _ verdict: Verdict, _ label: String = "Tomato___Late_blight", index: Int = 30) -> ReadingRecord {
        ReadingRecord(time: time.iso8601, verdict: verdict, top: [ScoredClass(index: index, label: label, score: 0.875)], timings: .init(prepare: 1, invoke: 4))
    }

    /// Readings of the last hours before `now`, a camera's: four healthy, three late blight, one
    /// uncertain, two with no leaf; and an upload.
    static func filledJournal(_ path: String, now: JournalTime) throws -> Journal {
        let journal = try Journal(path: path)
        func at(_ minutesAgo: Int) -> JournalTime { JournalTime(milliseconds: now.milliseconds - Int64(minutesAgo) * 60_000, offsetMinutes: now.offsetMinutes) }
        for minutes in [300, 290, 280, 270] { try journal.insert(reading(at(minutes), .diagnosis, "Tomato___healthy", index: 37), source: "Greenhouse 1", time: at(minutes)) }
        try journal.insert(reading(at(200), .uncertain), source: "Greenhouse 1", time: at(200))
        for minutes in [150, 140] { try journal.insert(reading(at(minutes), .noLeaf), source: "Greenhouse 1", time: at(minutes)) }
        for minutes in [60, 50, 40] { try journal.insert(reading(at(minutes), .diagnosis), source: "Greenhouse 1", time: at(minutes)) }
        try journal.insert(reading(at(30), .diagnosis, "Strawberry___Leaf_scorch", index: 25), source: "upload", time: at(30))
        return journal
    }

    @Test func countsSplitHealthyLeavesFromProblems() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let now = JournalTime.now()
        let journal = try Self.filledJournal(folder + "/journal.sqlite", now: now)
        // A day from whole quarters (the kept counts) and from a ragged start (the readings).
        for since in [now.milliseconds - 86_400_000 / 900_000 * 900_000, now.milliseconds - 86_400_000 + 1] {
            let rows = try journal.meaningCounts(Journal.Selection(since: JournalTime(milliseconds: since, offsetMinutes: 0), source: "Greenhouse 1"),
                                                 periodMilliseconds: 86_400_000 * 2, offsetMinutes: 0)
            let total = rows.reduce(into: [ReadingMeaning: Int]()) { sum, row in sum.merge(row.counts, uniquingKeysWith: +) }
            #expect(total == [.healthy: 4, .problem: 3, .notSure: 1, .nothing: 2], "\(rows)")
        }
        let all = try journal.meaningCounts(Journal.Selection(), periodMilliseconds: 86_400_000 * 7, offsetMinutes: 0)
        #expect(all.reduce(0) { $0 + ($1.counts[.problem] ?? 0) } == 4)
        // Deleted readings are no longer counted.
        try ForeignSQLite.execute(journal.path, "DELETE FROM readings WHERE verdict = 'diagnosis' AND source = (SELECT id FROM sources WHERE name = 'upload')")
        let after = try journal.meaningCounts(Journal.Selection(), periodMilliseconds: 86_400_000 * 7, offsetMinutes: 0)
        #expect(after.reduce(0) { $0 + ($1.counts[.problem] ?? 0) } == 3)
    }

    @Test func aVersionFourJournalHasItsDiagnosesCountedWhenMigrated() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/journal.sqlite"
        try ForeignSQLite.execute(path, "PRAGMA auto_vacuum = INCREMENTAL; CREATE TABLE schema_version(version INTEGER NOT NULL); "
                                  + JournalSchema.migrations[0..<4].joined(separator: ";\n") + "; INSERT INTO schema_version(version) VALUES (4); "
                                  + "INSERT INTO sources(id, name) VALUES (1, 'cam'); "
                                  + "INSERT INTO classes(id, model_index, label) VALUES (1, 37, 'Tomato___healthy'), (2, 30, 'Tomato___Late_blight'); "
                                  + "INSERT INTO readings(time, utc_offset, source, verdict, top, prepare_ms, invoke_ms) VALUES "
                                  + "(1796202930000, 0, 1, 'diagnosis', x'010000000000603f', 1, 4), (1796202931000, 0, 1, 'diagnosis', x'020000000000603f', 1, 4), "
                                  + "(1796202932000, 0, 1, 'diagnosis', x'020000000000603f', 1, 4)")
        let journal = try Journal(path: path)
        let rows = try journal.meaningCounts(Journal.Selection(), periodMilliseconds: 86_400_000, offsetMinutes: 0)
        #expect(rows.map(\.counts) == [[.healthy: 1, .problem: 2]])
    }

    static func page(_ journal: Journal, now: JournalTime, _ language: String, source: String? = nil) throws -> String {
        let response = try JournalPage.page(journal, source: source, now: now, keepsUploadPhotos: false, catalogue: try #require(Catalogue(language: language)))
        return String(decoding: response.body, as: UTF8.self)
    }

    /// The day line's quarters, as (x, colour) in the order drawn.
    static func dayLine(_ page: String) -> [(x: Int, fill: String)] {
        let line = page.split(separator: "class=\"day-line-cells\"").dropFirst().first.map { $0.prefix { $0 != "\n" } } ?? ""
        return line.matches(of: /<rect x="(\d+)" width="10" height="40" fill="(#[0-9a-f]+)"/).map { (Int($0.output.1)!, String($0.output.2)) }
    }

    @Test func thePageColoursCountsAndDrawsTheDayByMeaning() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        // Now at a quarter's start and UTC, so each reading's quarter is known.
        let now = JournalTime(milliseconds: 1_796_202_000_000, offsetMinutes: 0)
        let journal = try Self.filledJournal(folder + "/journal.sqlite", now: now)
        let english = try Self.page(journal, now: now, "en")
        #expect(english.contains("<td>4 healthy, 4 with a problem, 1 not sure, 2 with nothing to see</td>"), "\(english)")
        #expect(!english.contains("Diagnosis</td>"))
        for meaning in ReadingMeaning.allCases { #expect(english.contains(JournalPage.swatch(meaning))) }
        let colours = HistoryPage.colours
        // The line's 96 quarters, from 09:15 yesterday, end with the one now (09:00) is in:
        // readings 300 to 270 minutes ago are in quarters 75 to 77, 200 in 81, 150 and 140 in
        // 85, 60 to 40 in 91 and 92.
        let quarters = Self.dayLine(english)
        #expect(quarters.map(\.x) == [75, 76, 77, 81, 85, 91, 92].map { $0 * 10 }, "\(quarters)")
        #expect(quarters.map(\.fill) == [colours[.healthy]!, colours[.healthy]!, colours[.healthy]!, colours[.notSure]!, colours[.nothing]!,
                                         colours[.problem]!, colours[.problem]!])
        #expect(english.contains("aria-label=\"09:15 to 04:00: no readings, 04:00 to 04:45: Healthy, "), "\(english)")
        // In Arabic the line runs from the right: the same quarters mirrored, the counts in
        // Arabic's forms and its comma, the camera's name isolated.
        let arabic = try Self.page(journal, now: now, "ar")
        #expect(Self.dayLine(arabic).map(\.x) == [75, 76, 77, 81, 85, 91, 92].map { (95 - $0) * 10 })
        #expect(Self.dayLine(arabic).map(\.fill) == quarters.map(\.fill))
        #expect(arabic.contains("<td>4 قراءات سليمة، 4 قراءات فيها مشكلة، قراءة واحدة غير مؤكدة، قراءتان لا يُرى فيهما شيء</td>"), "\(arabic)")
        #expect(arabic.contains("<h2>آخر 24 ساعة: <bdi>Greenhouse 1</bdi></h2>"))
        #expect(arabic.contains("<td class=\"day\">"))
    }

    @Test func numbersGroupTheirThousandsAsTheLanguageDoes() {
        #expect(Catalogue.english.number(1_234_567) == "1,234,567" && Catalogue.english.number(-999) == "-999")
        #expect(Catalogue(language: "ar")?.number(12_345) == "12٬345")
        #expect(Catalogue(language: "ar")?.count("problem", 1200) == "1٬200 قراءة فيها مشكلة")
    }
}

/// One clock: times typed as a person types them, and every page at the viewer's UTC offset.
@Suite struct ViewerClockTests {
    /// 2026-12-07T01:05:37.303 in Cairo (UTC+2).
    static let now = JournalTime(iso8601: "2026-12-07T01:05:37.303+02:00")!

    @Test func timesAsAPersonTypesThem() {
        func typed(_ text: String) -> String? { JournalTime(typed: text, now: Self.now)?.iso8601 }
        #expect(typed("2026-12-07T01:05") == "2026-12-07T01:05:00.000+02:00")
        #expect(typed("2026-12-07 01:05:30") == "2026-12-07T01:05:30.000+02:00")
        #expect(typed("2026-12-06") == "2026-12-06T00:00:00.000+02:00")
        #expect(typed("today") == "2026-12-07T00:00:00.000+02:00" && typed("Yesterday") == "2026-12-06T00:00:00.000+02:00")
        #expect(typed("2h") == "2026-12-06T23:05:37.303+02:00" && typed("30m") == "2026-12-07T00:35:37.303+02:00")
        #expect(typed("90min") == "2026-12-06T23:35:37.303+02:00" && typed("3d") == "2026-12-04T01:05:37.303+02:00")
        // Full ISO 8601 keeps its own offset.
        #expect(typed("2026-12-07T01:05:00Z") == "2026-12-07T01:05:00.000+00:00" && typed("2026-12-07T01:05:00-05:00") == "2026-12-07T01:05:00.000-05:00")
        for wrong in ["Tuesday", "2h ago", "-2h", "h", "2026-02-31T01:05", "2026-12-07T25:05", "", "99999999999d"] {
            #expect(typed(wrong) == nil, "\(wrong)")
        }
        // West of UTC, before midnight UTC: today is the local day.
        let newYork = JournalTime(iso8601: "2026-12-07T22:30:00-05:00")!
        #expect(JournalTime(typed: "today", now: newYork)?.iso8601 == "2026-12-07T00:00:00.000-05:00")
    }

    static func request(cookie: String?) -> HTTPRequest {
        HTTPRequest(method: "GET", path: "/history", headers: cookie.map { ["cookie": $0] } ?? [:])
    }

    @Test func theViewersOffsetComesFromItsCookie() {
        #expect(ViewerClock.offsetMinutes(for: Self.request(cookie: "plantleaf_lang=ar; plantleaf_utc_offset=120")) == 120)
        #expect(ViewerClock.offsetMinutes(for: Self.request(cookie: "plantleaf_utc_offset=-300")) == -300)
        for wrong in [nil, "plantleaf_utc_offset=", "plantleaf_utc_offset=1440", "plantleaf_utc_offset=2h", "other=120"] {
            #expect(ViewerClock.offsetMinutes(for: Self.request(cookie: wrong)) == nil, "\(wrong ?? "none")")
        }
    }

    /// A camera that writes UTC, a viewer in Cairo: the events, the day line's hours and the
    /// table's days are the viewer's, and the page says at which offset it was drawn.
    @Test func theHistoryIsDrawnOnTheViewersClock() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let journal = try Journal(path: folder + "/journal.sqlite")
        for minutes in [30, 20, 10] {
            let time = JournalTime(milliseconds: Self.now.milliseconds - Int64(minutes) * 60_000, offsetMinutes: 0)
            try journal.insert(HistoryMeaningTests.reading(time, .diagnosis), source: "cam", time: time)
            try journal.beginEvent(source: "cam", state: JournalState(verdict: .diagnosis, label: "Tomato___Late_blight"), start: time, picture: nil)
        }
        let page = try HistoryMeaningTests.page(journal, now: Self.now, "en")
        #expect(page.contains("<meta name=\"plantleaf-utc-offset\" content=\"120\">"))
        #expect(page.contains("since Mon 7 Dec 00:55, 10 min so far"), "\(page)")
        #expect(page.contains("<td class=\"day\">Mon 7 Dec</td>"))
        #expect(page.contains("<span>01:15</span>"), "the day line's hours")
    }
}

/// The small things of the grower's pages: the language switch comes back to the page it was
/// on, and the uploads' view of the history shows the uploads' results.
@Suite struct GrowerPageTests {
    @Test func theLanguageSwitchComesBackToThePageItWasOn() throws {
        let live = String(decoding: WebAssets.livePage(.english, cameraName: "Greenhouse 1").body, as: UTF8.self)
        #expect(live.contains("<a href=\"/language/ar?to=/live\" lang=\"ar\""), "\(live)")
        let photo = String(decoding: WebAssets.page(.english).body, as: UTF8.self)
        #expect(photo.contains("<a href=\"/language/ar\" lang=\"ar\""))
        func location(_ returnTo: String?) -> String? {
            WebLanguage.switchResponse(path: "/language/ar", returnTo: returnTo, secure: false)?.headers.first { $0.name == "Location" }?.value
        }
        #expect(location("/live") == "/live" && location("/history") == "/history" && location(nil) == "/")
        // Never to another site, nor to a page that is not one of the grower's.
        for elsewhere in ["https://example.com/", "//example.com", "/api/latest", "live"] { #expect(location(elsewhere) == "/", "\(elsewhere)") }
    }

    @Test func theUploadsViewShowsTheUploadsResultsNotTheCamerasEvents() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let now = JournalTime(milliseconds: 1_796_202_000_000, offsetMinutes: 0)
        let journal = try HistoryMeaningTests.filledJournal(folder + "/journal.sqlite", now: now)
        try journal.beginEvent(source: "Greenhouse 1", state: JournalState(verdict: .diagnosis, label: "Tomato___Late_blight"), start: now, picture: nil)
        let uploads = try HistoryMeaningTests.page(journal, now: now, "en", source: "upload")
        #expect(uploads.contains("<ol id=\"uploads\">\n<li><strong class=\"meaning-problem\">Strawberry — Leaf scorch</strong><br>Wed 2 Dec 08:30</li>\n</ol>"),
                "\(uploads)")
        #expect(!uploads.contains("id=\"timeline\"") && !uploads.contains("Late blight"))
        #expect(uploads.contains("<td>1 with a problem</td>"), "the table counts the uploads alone")
        let camera = try HistoryMeaningTests.page(journal, now: now, "en", source: "Greenhouse 1")
        #expect(camera.contains("id=\"timeline\"") && !camera.contains("id=\"uploads\""))
    }
}

/// A file that is no JPEG or PNG is named in words by its first bytes, never shown as bytes.
@Suite struct FileKindTests {
    @Test func eachKindIsToldFromItsFirstBytes() {
        let examples: [([UInt8], FileKind)] = [
            (Array("this is no photo\n".utf8), .text), ([0xEF, 0xBB, 0xBF, 0xD8, 0xA7], .text), (Array("%PDF-1.7".utf8), .pdf),
            (Array("GIF89a".utf8), .gif), (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), .webp),
            ([0, 0, 0, 0x18] + Array("ftypheic".utf8), .heic), ([0, 0, 0, 0x1C] + Array("ftypavif".utf8), .heic), (Array("BM6".utf8) + [0, 0], .bmp),
            ([0x49, 0x49, 0x2A, 0x00], .tiff), ([0x50, 0x4B, 0x03, 0x04, 0x14], .zip), ([0x00, 0x01, 0x02, 0xFE], .other), ([], .other),
        ]
        for (bytes, kind) in examples { #expect(FileKind(firstBytes: bytes) == kind, "\(bytes)") }
        let arabic = Catalogue(language: "ar")!
        #expect(ImageError.unknownFormat(firstBytes: Array("%PDF".utf8)).message(in: .english) == "not a JPEG or PNG photo: this file is a PDF document")
        #expect(ImageError.unknownFormat(firstBytes: Array("%PDF".utf8)).message(in: arabic) == "ليس صورة JPEG أو PNG: هذا الملف مستند PDF")
        for kind in FileKind.allCases { #expect(Catalogue.english.ownKeys.contains("error.image.kind." + kind.rawValue) && arabic.ownKeys.contains("error.image.kind." + kind.rawValue)) }
    }
}
