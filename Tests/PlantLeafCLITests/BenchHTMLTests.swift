import Foundation
import Glibc
import PlantLeafCore
import PlantLeafBench
import PlantLeafTestSupport
import Testing

/// `plantleaf bench compare --html FILE`: the page of two real reports, loaded in headless
/// Chromium (`scripts/setup.sh browser` installs it; `make test` runs that step): no console
/// message, one drawn chart per stage, a screenshot kept in .build/test-output/bench-compare-html;
/// and report text shown escaped, never run.
@Suite struct BenchHTMLTests {
    /// Where the screenshot stays after the test (the temporary folders are removed).
    static let outputFolder = TestPaths.root + "/.build/test-output/bench-compare-html"

    /// Seconds Chromium may take for one page before it is killed with all it started.
    static let browserTimeLimit: Double = 120

    struct BrowserMissing: Error, CustomStringConvertible {
        var description: String {
            "chromium is not installed, and the bench compare --html tests need it: run scripts/setup.sh browser (make test does)"
        }
    }

    /// The chromium on PATH (Debian's `chromium` package), or a failure saying how to install it.
    static func chromium() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = String(folder) + "/chromium"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw BrowserMissing()
    }

    /// Runs headless Chromium on the file `page` with `arguments`, a fresh profile in `folder`.
    static func runBrowser(_ arguments: [String], page: String, folder: String) throws -> CommandResult {
        let browser = try chromium()
        let profile = folder + "/chromium-profile-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let flags: [String] = ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + profile,
                               "--no-first-run", "--disable-extensions", "--enable-logging=stderr", "--v=0"]
        let url = URL(fileURLWithPath: page).absoluteString
        return try runCommand(browser, flags + arguments + [url], environment: ["HOME": folder],
                              timeLimit: browserTimeLimit)
    }

    /// Chromium's lines for what the page logged or threw (console.log, console.error, uncaught errors).
    static func consoleLines(_ result: CommandResult) -> [String] {
        result.stderrLines.filter { $0.contains(":CONSOLE") }
    }

    static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test func browserShowsOneChartPerStageWithoutErrors() throws {
        _ = try Self.chromium()
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let a = folder + "/a.json", b = folder + "/b.json", page = folder + "/page.html"
        let first = try runPlantLeaf(["bench", "--synthetic", "--runs", "3", "--warmup", "0", "--profile", "--json", a])
        #expect(first.status == 0, "stderr: \(first.stderr)")
        let second = try runPlantLeaf(["bench", "--synthetic", "--threads", "1,2", "--runs", "3", "--warmup", "0", "--profile", "--json", b])
        #expect(second.status == 0, "stderr: \(second.stderr)")

        let text = try runPlantLeaf(["bench", "compare", a, b])
        let result = try runPlantLeaf(["bench", "compare", "--html", page, a, b])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.isEmpty)
        // The text table is printed as without --html.
        #expect(result.stdout == text.stdout)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let stages: Int = BenchStage.allCases.count
        #expect(Self.count("class=\"stage-chart\"", in: html) == stages)
        #expect(Self.count("class=\"speedup-chart\"", in: html) == 2)
        #expect(html.contains("Op profile, 1 thread"))
        // Self-contained: nothing to fetch.
        for reference in ["src=", "href=", "url(", "@import", "<link", "<img"] {
            #expect(!html.contains(reference), "the page refers to something outside: \(reference)")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".partial-") }
        #expect(leftovers == [])

        let dump = try Self.runBrowser(["--dump-dom"], page: page, folder: folder)
        #expect(dump.status == 0, "chromium: \(dump.stderr.suffix(2000))")
        #expect(Self.consoleLines(dump) == [], "the page logged or threw")
        #expect(Self.count("class=\"stage-chart\"", in: dump.stdout) == stages)
        // The page's own script counted the stage charts the browser laid out with a size.
        #expect(dump.stdout.contains("data-charts-drawn=\"\(stages)\""))

        try FileManager.default.createDirectory(atPath: Self.outputFolder, withIntermediateDirectories: true)
        let screenshot = Self.outputFolder + "/page.png"
        try? FileManager.default.removeItem(atPath: screenshot)
        let shot = try Self.runBrowser(["--screenshot=" + screenshot, "--window-size=1280,2000", "--hide-scrollbars"],
                                       page: page, folder: folder)
        #expect(shot.status == 0, "chromium: \(shot.stderr.suffix(2000))")
        #expect(Self.consoleLines(shot) == [])
        try? FileManager.default.removeItem(atPath: Self.outputFolder + "/page.html")
        try? FileManager.default.copyItem(atPath: page, toPath: Self.outputFolder + "/page.html")
        print("bench compare --html screenshot: \(screenshot)")
        let png: [UInt8] = (try? FileReader.readAll(path: screenshot)) ?? []
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        #expect(Array(png.prefix(8)) == signature, "no PNG at \(screenshot)")
        // A blank 1280x2000 page compresses to a few kilobytes; charts and text take far more.
        #expect(png.count > 30_000, "screenshot \(screenshot) is only \(png.count) bytes")
    }

    /// Text from a report (board, warning, stage and op names) is shown, not run: every & < > " '
    /// is a character reference, and the page's one script is its own.
    @Test func reportTextIsEscaped() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let a = folder + "/a.json", b = folder + "/b.json", page = folder + "/page.html"
        let board = "<script>alert('x')</script> & co"
        TestImages.write(Array(BenchCommandTests.report(board: "plain", invokeMedian: 8, invokeP99: 9).utf8), to: a)
        var report = BenchCommandTests.report(board: board, invokeMedian: 4, invokeP99: 5, invokeQuartiles: (3.9, 4.2))
        report = report.replacingOccurrences(of: "\"schema_version\": 3,",
                                             with: "\"schema_version\": 3, \"warnings\": [\"<img src=x onerror=\\\"alert(1)\\\">\"],")
        TestImages.write(Array(report.utf8), to: b)

        let result = try runPlantLeaf(["bench", "compare", "--html", page, a, b])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; co"))
        #expect(html.contains("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"))
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("<img"))
        #expect(Self.count("<script>", in: html) == 1)
        #expect(Self.count("class=\"stage-chart\"", in: html) == BenchCommandTests.stages.count)
    }

    @Test func escapeCoversTheFiveCharacters() {
        let escaped: String = BenchHTML.escape("a&b<c>d\"e'f\u{1}")
        #expect(escaped == "a&amp;b&lt;c&gt;d&quot;e&#39;f\u{FFFD}")
    }

    /// The page never replaces a report, and an unwritable page is a usage error before any report is read.
    @Test func htmlFileIsCheckedFirst() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let a = folder + "/a.json", b = folder + "/b.json"
        let text = BenchCommandTests.report(board: "x", invokeMedian: 1, invokeP99: 1)
        TestImages.write(Array(text.utf8), to: a)
        TestImages.write(Array(text.utf8), to: b)

        let clash = try runPlantLeaf(["bench", "compare", "--html", b, a, b])
        #expect(clash.status == 2)
        #expect(clash.stdout.isEmpty)
        #expect(clash.stderr == "plantleaf bench compare: --html names the report \(b): give the page a file of its own "
                + "(see plantleaf bench --help)\n")
        let kept: String = try String(contentsOfFile: b, encoding: .utf8)
        #expect(kept == text)

        let nowhere = try runPlantLeaf(["bench", "compare", "--html", "/no/such/folder/page.html", a, b])
        #expect(nowhere.status == 2)
        #expect(nowhere.stderr == "plantleaf bench compare: cannot write --html file /no/such/folder/page.html: no such file or directory "
                + "(see plantleaf bench --help)\n")

        let badReport = try runPlantLeaf(["bench", "compare", "--html", folder + "/page.html", a, folder + "/none.json"])
        #expect(badReport.status == 2)
        #expect(badReport.stderr.contains("cannot read benchmark report \(folder)/none.json"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/page.html"))
    }
}
