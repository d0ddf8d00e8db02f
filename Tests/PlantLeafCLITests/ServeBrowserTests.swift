import Foundation
import PlantLeafCore
import PlantLeafJournal
import PlantLeafTestSupport
import Testing

/// The page of `plantleaf serve` in headless Chromium, driven through chromium-driver by
/// Browser/serve_page.py (`scripts/setup.sh browser` installs all three; `make test` runs that
/// step): a photo picked with the file input gets its answer drawn, with nothing in the console
/// (where a refused Content-Security-Policy would show), a screenshot kept in
/// .build/test-output/serve-page; an upload that is no image shows the server's error; the live
/// page of a server reading an ffmpeg stream shows its frames and readings as they change; with
/// a token, the sign-in page is styled (under its own policy) and signing in leads to the page.
@Suite struct ServeBrowserTests {
    /// Where the screenshots stay after the test (the temporary folders are removed).
    static let outputFolder = TestPaths.root + "/.build/test-output/serve-page"

    static let script = TestPaths.root + "/Tests/PlantLeafCLITests/Browser/serve_page.py"

    /// Seconds for the whole script: Chromium's start, the page, and up to 60 s for the answer
    /// (or, on the live page, for the changes).
    static let browserTimeLimit: Double = 180

    /// Why the script gave no page state: one line naming what is not installed, or its failure.
    struct BrowserProblem: Error, CustomStringConvertible {
        var description: String
    }

    /// What the page showed, as serve_page.py reports it.
    struct PageState {
        var fields: [String: Any]
        var verdict: String { fields["verdict"] as? String ?? "" }
        var top: [String] { fields["top"] as? [String] ?? [] }
        var timing: String { fields["timing"] as? String ?? "" }
        /// How the page is laid out (serve_page.py's LAYOUT): "dir", "lang", "too_wide" (elements
        /// past the viewport's sides), "score_directions", "top_behind_details", "hosts",
        /// "meaning", "codes", "problem", "photo_controls".
        var layout: [String: Any] { fields["layout"] as? [String: Any] ?? [:] }
        func layoutText(_ key: String) -> String { layout[key] as? String ?? "" }
        func layoutList(_ key: String) -> [String] { layout[key] as? [String] ?? ["(none reported)"] }
        var status: String { fields["status"] as? String ?? "" }
        var timedOut: Bool { fields["timed_out"] as? Bool ?? true }
        var resultShown: Bool { fields["result_shown"] as? Bool ?? false }
        var screenshotSaved: Bool { fields["screenshot_saved"] as? Bool ?? false }
        /// The live page's headings, and its frame's average colours ([r, g, b]), each as they
        /// changed.
        var verdicts: [String] { fields["verdicts"] as? [String] ?? [] }
        var frameColours: [[Int]] { fields["frame_colours"] as? [[Int]] ?? [] }
        var frameWidth: Int { fields["frame_width"] as? Int ?? 0 }
        /// The sign-in page's body type size, heading colour and hidden field's display, as the
        /// browser computed them.
        var signInStyle: [String] { fields["sign_in_style"] as? [String] ?? [] }
        var title: String { fields["title"] as? String ?? "" }
        /// Every entry the browser logged, as "LEVEL source: message".
        var console: [String] {
            let entries = fields["console"] as? [[String: String]] ?? []
            return entries.map { "\($0["level"] ?? "") \($0["source"] ?? ""): \($0["message"] ?? "")" }
        }
    }

    /// Opens the served page, picks `photo` with its file input, and reads what it then shows;
    /// the screenshot goes to `screenshot`.
    static func pick(_ photo: String, on server: TestServer, screenshot: String) throws -> PageState {
        try runScript(["http://127.0.0.1:\(server.port)/", photo, screenshot], screenshot: screenshot)
    }

    /// As `pick`, in a browser of a phone's size (390 × 844) that asks for `language` first.
    static func pickOnAPhone(_ photo: String, language: String, on server: TestServer, screenshot: String) throws -> PageState {
        try runScript(["--phone", "--lang", language, "http://127.0.0.1:\(server.port)/", photo, screenshot], screenshot: screenshot)
    }

    /// Opens the served /live page and watches it until its heading and its frame have changed.
    static func watchLive(on server: TestServer, screenshot: String) throws -> PageState {
        try runScript(["--live", "http://127.0.0.1:\(server.port)/live", screenshot], screenshot: screenshot)
    }

    /// Opens the page of a server with a token, and signs in with `token`.
    static func signIn(_ token: String, on server: TestServer, screenshot: String) throws -> PageState {
        try runScript(["--sign-in", token, "http://127.0.0.1:\(server.port)/", screenshot], screenshot: screenshot)
    }

    /// serve_page.py with `arguments`, its report read; `screenshot` is removed first, so that
    /// the one found afterwards is this run's.
    /// Opens the served /history at a phone's size.
    static func readHistory(on server: TestServer, screenshot: String) throws -> PageState {
        try runScript(["--history", "http://127.0.0.1:\(server.port)/history", screenshot], screenshot: screenshot)
    }

    static func runScript(_ arguments: [String], screenshot: String) throws -> PageState {
        let folder = TestPaths.temporaryDirectory("servebrowser")
        defer { TestPaths.removeTemporaryDirectory(folder) }
        try FileManager.default.createDirectory(atPath: outputFolder, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: screenshot)
        let environment = ["HOME": folder, "TMPDIR": folder, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        let result = try runCommand("/usr/bin/python3", [script] + arguments, environment: environment, timeLimit: browserTimeLimit)
        if result.status == 3 { throw BrowserProblem(description: result.stderr.trimmingCharacters(in: .newlines)) }
        guard result.status == 0, let fields = jsonObject(result.stdout.trimmingCharacters(in: .newlines)) else {
            throw BrowserProblem(description: "serve_page.py failed (\(result.status)): \(result.stderr.suffix(3000))")
        }
        return PageState(fields: fields)
    }

    static func isPNG(_ path: String) -> Bool {
        let bytes: [UInt8] = (try? FileReader.readAll(path: path)) ?? []
        return Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    }

    /// A journal with a healthy spell then a blight that lasts, each event with its frame: the
    /// phone reads the timeline newest first with both pictures, the day's strip, and one table
    /// whose text is at least 12 CSS pixels.
    @Test func historyPageReadsOnAPhone() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/journal.sqlite"
        let recorder = try JournalRecorder(settings: JournalSettings(path: path, eventReadings: 2)) { line in Issue.record("\(line)") }
        let picture = try #require(EventPicture.encode(try ImageDecoder().decode(try FileReader.readAll(path: TestPaths.appleScabLeaf))))
        let now = JournalTime.now()
        for (minutesAgo, label) in [(90, "Tomato___healthy"), (80, "Tomato___healthy"), (40, "Tomato___Early_blight"), (30, "Tomato___Early_blight")] {
            let time = JournalTime(milliseconds: now.milliseconds - Int64(minutesAgo) * 60_000, offsetMinutes: now.offsetMinutes)
            let record = ReadingRecord(time: time.iso8601, verdict: .diagnosis, top: [ScoredClass(index: 29, label: label, score: 0.9375)],
                                       timings: .init(prepare: 1, invoke: 9))
            recorder.record(record, source: "/dev/video0", time: time, makesEvents: true) { picture }
        }
        let server = try TestServer(["--jobs", "1", "--journal", path])
        let page = try Self.readHistory(on: server, screenshot: Self.outputFolder + "/history.png")
        let events = page.fields["events"] as? [String] ?? []
        #expect(events.count == 2, "\(page.fields)")
        #expect(events.first?.hasPrefix("Tomato — Early blight (problem)\nsince ") == true, "\(events)")
        // Under each event's picture, the way to correct it (closed).
        #expect(events.first?.hasSuffix(", 40 min so far · /dev/video0\nWrong? Tell PlantLeaf what this is") == true, "\(events)")
        #expect(events.last?.hasPrefix("Tomato — healthy\nfrom ") == true && events.last?.contains(", 50 min · ") == true, "\(events)")
        #expect(page.fields["pictures_loaded"] as? [Bool] == [true, true])
        // The day's strip: the first frame of each hour the readings fell in (an hour and a half: two or three).
        let strip = page.fields["strip_loaded"] as? [Bool] ?? []
        #expect((2...3).contains(strip.count) && !strip.contains(false), "\(strip)")
        #expect((page.fields["smallest_table_text_px"] as? Double ?? 0) >= 12, "\(page.fields)")
        #expect(page.fields["tables"] as? Int == 1 && page.fields["viewport_width"] as? Int == 390)
        #expect(page.console == [], "the page logged or was refused something")
        #expect(page.screenshotSaved)
    }

    @Test func leafPhotoShowsItsDiagnosis() throws {
        let server = try TestServer(["--jobs", "1"])
        let screenshot = Self.outputFolder + "/diagnosis.png"
        let page = try Self.pick(TestPaths.appleScabLeaf, on: server, screenshot: screenshot)
        #expect(!page.timedOut, "no answer within 60 s; status: \(page.status)")
        #expect(page.resultShown)
        #expect(page.status == "")
        // A diagnosis: the heading is the top class's readable name, not the verdict word.
        #expect(page.verdict == "Apple — Apple scab")
        #expect(page.top.count == 3, "\(page.top)")
        let first = page.top.first ?? ""
        // As shown: the browser collapses the page's two spaces after the percentage to one.
        #expect(first.range(of: #"^\d{1,3}\.\d % "#, options: .regularExpression) != nil, "\(first)")
        #expect(first.hasSuffix("Apple — Apple scab"), "\(first)")
        #expect(page.timing.range(of: #"^How much the picture looks like a leaf photo: \d{1,3} %\. Read in \d+\.\d milliseconds "#,
                                  options: .regularExpression) != nil, "\(page.timing)")
        #expect(page.console == [], "the page logged, threw or was refused something")
        #expect(page.screenshotSaved)
        #expect(Self.isPNG(screenshot), "no PNG at \(screenshot)")
        print("serve page screenshot: \(screenshot)")
        print("serve page shows: \(page.verdict) | \(page.top.joined(separator: " | ")) | \(page.timing)")
    }

    /// A text file named .jpg: the browser sends it as image/jpeg, the server reads it and says
    /// why not, and the page shows that.
    @Test func fileThatIsNoImageShowsTheServersError() throws {
        let server = try TestServer(["--jobs", "1"])
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let fake = folder + "/leaf.jpg"
        try "this is no photo of a leaf\n".write(toFile: fake, atomically: true, encoding: .utf8)
        let page = try Self.pick(fake, on: server, screenshot: Self.outputFolder + "/not-an-image.png")
        #expect(!page.timedOut, "no answer within 60 s; status: \(page.status)")
        #expect(!page.resultShown)
        #expect(page.layout["preview_shown"] as? Bool == false, "a file that is no picture leaves no empty box: \(page.layout)")
        // Plain words first; the server's own words behind Details.
        #expect(page.status == "This file is not a photo PlantLeaf can read. Choose a JPEG or PNG photo of a leaf.")
        #expect(page.layoutText("problem") == "not an image PlantLeaf can read: not a JPEG or PNG photo: this file is text",
                "\(page.layout)")
        // The refused upload is the browser's one console entry: the 422 of the request itself.
        #expect(page.console.count == 1, "\(page.console)")
        #expect(page.console.allSatisfy { $0.contains("/api/classify") && $0.contains("422") }, "\(page.console)")
        print("serve page shows: \(page.status)")
    }

    /// ffmpeg turns the two leaves into an endless stream, each shown for 2 s at 2 frames a
    /// second and paced in real time (`realtime`), as a camera would send it; `loop` repeats the
    /// pair's 8 frames for ever.
    static let alternatingLeaves = #"ffmpeg -v error -nostdin -loop 1 -framerate 2 -t 2 -i '\#(TestPaths.appleScabLeaf)' "#
        + #"-loop 1 -framerate 2 -t 2 -i '\#(TestPaths.healthyTomatoLeaf)' "#
        + #"-filter_complex 'concat=n=2,loop=-1:size=8,realtime' -q:v 2 -f mjpeg -"#

    /// The sign-in page cannot fetch the style sheet (it needs the token), so it carries it inline,
    /// allowed by its hash: the browser applies it and logs no refusal, and the token leads on.
    @Test func signInPageIsStyledAndLeadsToThePage() throws {
        let folder = TestPaths.temporaryDirectory("signin")
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let token = "greenhouse-5d2a-e8c1-token"
        try (token + "\n").write(toFile: folder + "/token", atomically: true, encoding: .utf8)
        let server = try TestServer(["--jobs", "1", "--token-file", folder + "/token"])
        let screenshot = Self.outputFolder + "/sign-in.png"
        let page = try Self.signIn(token, on: server, screenshot: screenshot)
        #expect(page.signInStyle == ["20px", "rgb(11, 93, 30)", "none"])
        #expect(!page.timedOut, "signing in did not lead to the photo page")
        #expect(page.title == "PlantLeaf")
        #expect(page.console.isEmpty, "\(page.console)")
        #expect(page.screenshotSaved && Self.isPNG(screenshot), "no PNG at \(screenshot)")
        #expect(!server.stderr.contains(" 401 "), "\(server.stderr)")
    }

    @Test func livePageShowsTheFrameAndVerdictChange() throws {
        // ffmpeg's first frame can take longer than the default 5 s frame time-out when it starts
        // cold beside the rest of the suite.
        let server = try TestServer(["--jobs", "1", "--input", "-", "--timeout", "60"], input: Self.alternatingLeaves)
        // Until its first reading /api/latest answers 404, which the browser logs: this test is
        // about the readings, so the page is opened once there is one.
        try ServeCameraTests.waitForCamera(server, state: "running")
        let screenshot = Self.outputFolder + "/live.png"
        let page = try Self.watchLive(on: server, screenshot: screenshot)
        #expect(!page.timedOut, "no change of both heading and frame within 60 s: \(page.verdicts), \(page.frameColours); \(server.stderr)")
        // The frame is the model's input, 224 × 224, drawn from the stream.
        #expect(page.frameWidth == 224)
        let names: Set<String> = ["Apple — Apple scab", "Tomato — healthy"]
        #expect(Set(page.verdicts) == names, "\(page.verdicts)")
        #expect(Set(page.frameColours).count >= 2, "\(page.frameColours)")
        #expect(page.top.count == 3, "\(page.top)")
        // The capture time on the browser's clock, as a person says it.
        let timing = #"^How much the picture looks like a leaf photo: \d{1,3} %\. Picture taken (today|yesterday) \d\d:\d\d, read in \d+\.\d milliseconds \(picture number \d+\)\.$"#
        #expect(page.timing.range(of: timing, options: .regularExpression) != nil, "\(page.timing)")
        #expect(page.status == "")
        #expect(page.console == [], "the page logged, threw or was refused something")
        #expect(page.screenshotSaved)
        #expect(Self.isPNG(screenshot), "no PNG at \(screenshot)")
        print("live page screenshot: \(screenshot)")
        print("live page showed: \(page.verdicts.joined(separator: " → ")); frame colours \(page.frameColours); \(page.timing)")
    }

    /// The page in Arabic on a phone, as a browser set to Arabic asks for it: right to left, the
    /// diagnosis and the top classes named in Arabic, the numbers still left to right, nothing
    /// wider than the screen, nothing logged, nothing asked of another host. A disease comes
    /// with the signs to check on the plant, where they come from, and two sample leaves of it.
    @Test func arabicPhonePageShowsTheDiagnosisRightToLeft() throws {
        let server = try TestServer(["--jobs", "1"])
        let screenshot = Self.outputFolder + "/phone-ar-diagnosis.png"
        let page = try Self.pickOnAPhone(TestPaths.appleScabLeaf, language: "ar", on: server, screenshot: screenshot)
        #expect(!page.timedOut, "no answer within 60 s; status: \(page.status)")
        #expect(page.layoutText("lang") == "ar" && page.layoutText("dir") == "rtl", "\(page.layout)")
        #expect(page.verdict == "تفاح — جرب التفاح")
        let arabic = try #require(Catalogue(language: "ar"))
        #expect(page.layoutText("meaning") == arabic.diagnosisAdvice("Apple___Apple_scab", for: .photo))
        #expect(page.layoutText("meaning").hasPrefix("افحص النبات لتتأكد. ابحث عن: بقع زيتونية")
                && page.layoutText("meaning").hasSuffix("العلامات كما يصفها: الإرشاد الزراعي بجامعة مينيسوتا."), "\(page.layout)")
        #expect(page.layoutList("references") == ["256x256", "256x256"], "\(page.layout)")
        #expect(page.layoutList("reference_names") == ["ورقة مصابة: تفاح — جرب التفاح", "ورقة مصابة: تفاح — جرب التفاح"], "\(page.layout)")
        #expect(page.top.count == 3 && page.top.first?.hasSuffix("تفاح — جرب التفاح") == true, "\(page.top)")
        #expect(page.layout["top_behind_details"] as? Bool == false)
        Self.expectAPhoneLayout(page, port: server.port)
        #expect(page.timing.hasPrefix("مدى شبه الصورة بصور أوراق النبات: "), "\(page.timing)")
        #expect(page.screenshotSaved && Self.isPNG(screenshot), "no PNG at \(screenshot)")
        print("arabic phone page screenshot: \(screenshot)")
    }

    /// A healthy leaf needs no treatment, and the page says so, with nothing to compare it with.
    @Test func healthyLeafGetsNoTreatmentAdvice() throws {
        let server = try TestServer(["--jobs", "1"])
        let screenshot = Self.outputFolder + "/phone-en-healthy.png"
        let page = try Self.pickOnAPhone(TestPaths.healthyTomatoLeaf, language: "en", on: server, screenshot: screenshot)
        #expect(!page.timedOut, "no answer within 60 s; status: \(page.status)")
        #expect(page.verdict == "Tomato — healthy")
        #expect(page.layoutText("meaning") == "No sign of disease on this leaf: no treatment is needed. Look at the plant again in a few days.")
        #expect(page.layoutList("references") == [], "\(page.layout)")
        Self.expectAPhoneLayout(page, port: server.port)
        #expect(page.screenshotSaved && Self.isPNG(screenshot), "no PNG at \(screenshot)")
    }

    /// A picture with nothing in it, on a phone in each language: a heading in plain words and
    /// one sentence of advice; the class scores (the model names a class for anything) only
    /// behind Details. These screenshots are the ones docs/serve.md shows (a synthetic picture:
    /// no third-party photo in the repository).
    @Test func phonePageLeadsWithPlainWordsInEachLanguage() throws {
        let server = try TestServer(["--jobs", "1"])
        let folder = TestPaths.temporaryDirectory("phone")
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let (width, height) = (320, 240)
        let dark = folder + "/dark.png"
        TestImages.write(TestImages.png([UInt8](repeating: 6, count: width * height * 3), width: width, height: height, colorType: 2, bitDepth: 8),
                         to: dark)
        let expected = [("en", "Nothing to see in this picture", "The picture is too dark. Take it in daylight or turn a light on.",
                         "Result: No picture, because the picture is too dark."),
                        ("ar", "الصورة غير صالحة", "الصورة مظلمة جداً. صوّر في ضوء النهار أو أشعل ضوءاً.", "النتيجة: لا صورة، لأن الصورة مظلمة جداً.")]
        for (language, heading, advice, words) in expected {
            let screenshot = Self.outputFolder + "/phone-\(language).png"
            let page = try Self.pickOnAPhone(dark, language: language, on: server, screenshot: screenshot)
            #expect(!page.timedOut, "no answer within 60 s; status: \(page.status)")
            #expect(page.layoutText("dir") == (language == "ar" ? "rtl" : "ltr"), "\(page.layout)")
            #expect(page.verdict == heading)
            #expect(page.layoutText("meaning") == advice)
            // Details say what was found in words; the codes are behind a toggle of their own.
            #expect(page.layoutText("verdict_words") == words)
            #expect(page.layoutText("codes") == "no-picture · dark")
            #expect(page.layout["top_behind_details"] as? Bool == true)
            #expect(page.top.count == 3, "\(page.top)")
            Self.expectAPhoneLayout(page, port: server.port)
            #expect(page.screenshotSaved && Self.isPNG(screenshot), "no PNG at \(screenshot)")
            print("phone page screenshot (\(language)): \(screenshot)")
        }
    }

    /// What every phone page must be: no element past the screen's sides, one photo control in
    /// sight, the scores laid out left to right, nothing logged, and nothing asked of another host.
    static func expectAPhoneLayout(_ page: PageState, port: UInt16) {
        #expect(page.layout["viewport_width"] as? Int == 390, "\(page.layout)")
        #expect(page.layoutList("too_wide") == [], "\(page.layout)")
        #expect(page.layout["page_width"] as? Int == 390, "\(page.layout)")
        #expect(page.layout["photo_controls"] as? Int == 1, "\(page.layout)")
        #expect(page.layoutList("score_directions") == ["ltr", "ltr", "ltr"], "\(page.layout)")
        // Each class's name apart from its score, never run into it.
        #expect((page.layout["score_gaps"] as? [Int])?.allSatisfy { $0 >= 4 } == true, "\(page.layout["score_gaps"] ?? "")")
        #expect(page.layoutList("hosts") == ["127.0.0.1:\(port)"], "\(page.layout)")
        #expect(page.console == [], "the page logged, threw or was refused something")
    }
}
