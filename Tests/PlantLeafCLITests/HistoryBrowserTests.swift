import Foundation
import PlantLeafBench
import PlantLeafCore
import PlantLeafJournal
import PlantLeafTestSupport
import Testing

/// /history in headless Chromium at a phone's size (390 × 844), driven by Browser/history_page.py:
/// in Arabic with the browser in Cairo and in English in New York, the page is drawn on the
/// viewer's clock (clock.js's cookie), nothing is wider than the screen, no word is broken across
/// lines, the day line runs from the start of the line (right in Arabic, left in English) with
/// its colours by meaning, and the Arabic page has no English word outside names. Screenshots in
/// .build/test-output/history-page (docs/images keeps copies).
@Suite struct HistoryBrowserTests {
    static let outputFolder = TestPaths.root + "/.build/test-output/history-page"
    static let script = TestPaths.root + "/Tests/PlantLeafCLITests/Browser/history_page.py"

    /// history_page.py's report of `url`, or the one line saying what is not installed.
    static func read(_ url: String, language: String, zone: String, screenshot: String) throws -> [String: Any] {
        let folder = TestPaths.temporaryDirectory("historybrowser")
        defer { TestPaths.removeTemporaryDirectory(folder) }
        try FileManager.default.createDirectory(atPath: outputFolder, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: screenshot)
        let environment = ["HOME": folder, "TMPDIR": folder, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        let result = try runCommand("/usr/bin/python3", [script, "--lang", language, "--tz", zone, url, screenshot], environment: environment,
                                    timeLimit: ServeBrowserTests.browserTimeLimit)
        if result.status == 3 { throw ServeBrowserTests.BrowserProblem(description: result.stderr.trimmingCharacters(in: .newlines)) }
        guard result.status == 0, let fields = jsonObject(result.stdout.trimmingCharacters(in: .newlines)) else {
            throw ServeBrowserTests.BrowserProblem(description: "history_page.py failed (\(result.status)): \(result.stderr.suffix(3000))")
        }
        return fields
    }

    /// A camera's last hours: healthy, then not sure, then nothing to see, then late blight; two
    /// days before, healthy leaves; and an upload.
    static func journal(_ path: String) throws {
        let recorder = try JournalRecorder(settings: JournalSettings(path: path, eventReadings: 2)) { line in Issue.record("\(line)") }
        // A made-up leaf, so that the screenshots docs/images keeps hold no third party's photo.
        let picture = try #require(EventPicture.encode(RGBImage(width: SyntheticLeaf.width, height: SyntheticLeaf.height, pixels: SyntheticLeaf.pixels())))
        let now = JournalTime.now()
        let readings: [(minutesAgo: Int, verdict: Verdict, label: String)] = [(2 * 1440 + 60, .diagnosis, "Tomato___healthy"), (2 * 1440 + 50, .diagnosis, "Tomato___healthy")]
            + [300, 295, 290, 285].map { ($0, .diagnosis, "Tomato___healthy") } + [200, 195].map { ($0, .uncertain, "Tomato___Late_blight") }
            + [150, 145].map { ($0, .noLeaf, "Tomato___healthy") } + [60, 50, 40, 30].map { ($0, .diagnosis, "Tomato___Late_blight") }
        for reading in readings {
            let time = JournalTime(milliseconds: now.milliseconds - Int64(reading.minutesAgo) * 60_000, offsetMinutes: 0)
            let record = ReadingRecord(time: time.iso8601, verdict: reading.verdict, top: [ScoredClass(index: 30, label: reading.label, score: 0.9375)],
                                       timings: .init(prepare: 1, invoke: 9))
            recorder.record(record, source: "Greenhouse 1", time: time, makesEvents: true) { picture }
        }
        let upload = JournalTime(milliseconds: now.milliseconds - 20 * 60_000, offsetMinutes: 0)
        recorder.record(ReadingRecord(time: upload.iso8601, verdict: .diagnosis, top: [ScoredClass(index: 25, label: "Strawberry___Leaf_scorch", score: 0.8)],
                                      timings: .init(prepare: 1, invoke: 9)), source: "upload", time: upload, makesEvents: false) { nil }
    }

    @Test func theHistoryReadsOnAPhoneInArabicAndEnglishOnTheViewersClock() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/journal.sqlite"
        try Self.journal(path)
        // The server's clock is UTC; the viewers' are Cairo's (UTC+2 in December) and New York's.
        let server = try TestServer(["--jobs", "1", "--journal", path], environment: ["TZ": "UTC"])
        let colours = ["#1b7a34", "#e8a200", "#9e9e9e", "#c62828"]
        for (language, zone, offset) in [("ar", "Africa/Cairo", "120"), ("en", "America/New_York", "-300")] {
            let page = try Self.read("http://127.0.0.1:\(server.port)/history", language: language, zone: zone,
                                     screenshot: Self.outputFolder + "/history-\(language).png")
            #expect(page["lang"] as? String == language && page["viewport_width"] as? Int == 390, "\(page)")
            #expect(page["drawn_offset"] as? String == offset && page["browser_offset"] as? String == offset, "\(page)")
            #expect(page["too_wide"] as? [String] == [], "\(language): \(page["too_wide"] ?? "")")
            #expect(page["broken_words"] as? [String] == [], "\(language): \(page["broken_words"] ?? "")")
            // The day line's colours as the screen shows them, left to right, each run once.
            var runs: [String] = []
            for fill in page["day_line_fills"] as? [String] ?? [] where runs.last != fill { runs.append(fill) }
            #expect(runs == (language == "ar" ? colours.reversed() : colours), "\(language): \(page["day_line_fills"] ?? "")")
            let hours = page["day_line_hours"] as? [String] ?? []
            #expect(hours.count == 5 && hours.first == hours.last, "\(hours)")
            #expect(page["console"] as? [Any] == nil || (page["console"] as? [Any])?.isEmpty == true, "\(page["console"] ?? "")")
            #expect(page["screenshot_saved"] as? Bool == true)
            if language == "ar" {
                #expect(page["latin_words"] as? [String] == [], "\(page["latin_words"] ?? "")")
                // Each count in its noun's form, Arabic's comma between them (the rows of a day
                // near midnight may split them; the week's row holds them all).
                let counts = page["counts"] as? [String] ?? []
                #expect(counts.contains { $0.contains("قراءات فيها مشكلة، قراءتان غير مؤكدتين، قراءتان لا يُرى فيهما شيء") }, "\(counts)")
            }
        }
    }

    /// The language switch of /live and /history comes back to that page, as served.
    @Test func theLanguageSwitchComesBackToThePage() throws {
        let server = try TestServer(["--jobs", "1", "--no-journal"])
        for page in ["/live", "/history"] {
            let switched = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/language/ar?to=" + page))
            #expect(switched.status == 303 && switched.headers["location"] == page, "\(switched.headers)")
        }
        let elsewhere = try RawHTTP.exchange(port: server.port, RawHTTP.request("GET", "/language/ar?to=//example.com/"))
        #expect(elsewhere.headers["location"] == "/")
    }

    /// /live on a phone in each language, a camera reading a made-up leaf: nothing wider than
    /// the screen, no word broken, no Latin word on the Arabic page but names; its screenshots are the ones docs/images keeps.
    @Test func theLivePageReadsOnAPhoneInEachLanguage() throws {
        let folder = TestPaths.temporaryDirectory("live")
        defer { TestPaths.removeTemporaryDirectory(folder) }
        // A made-up leaf as the camera's stream (with a little noise, so that no frame is the same
        // as the one before, which the camera would report), so the screenshots hold no third party's photo.
        let leaf = folder + "/leaf.jpg"
        try Data(SyntheticLeaf.jpeg()).write(to: URL(fileURLWithPath: leaf))
        let stream = "ffmpeg -v error -nostdin -loop 1 -framerate 2 -i '\(leaf)' -vf noise=alls=12:allf=t,realtime -q:v 2 -f mjpeg -"
        let server = try TestServer(["--jobs", "1", "--input", "-", "--timeout", "60"], input: stream)
        try ServeCameraTests.waitForCamera(server, state: "running")
        for language in ["ar", "en"] {
            let page = try Self.read("http://127.0.0.1:\(server.port)/live", language: language, zone: "Africa/Cairo",
                                     screenshot: Self.outputFolder + "/live-\(language).png")
            #expect(page["lang"] as? String == language && page["viewport_width"] as? Int == 390, "\(page)")
            #expect(page["too_wide"] as? [String] == [], "\(language): \(page["too_wide"] ?? "")")
            #expect(page["broken_words"] as? [String] == [], "\(language): \(page["broken_words"] ?? "")")
            if language == "ar" {
                #expect(page["latin_words"] as? [String] == [], "\(page["latin_words"] ?? "")")
            }
            #expect(page["screenshot_saved"] as? Bool == true)
        }
    }
}
