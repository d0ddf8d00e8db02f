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
