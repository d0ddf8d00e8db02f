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

    /// A report with an invoke and end-to-end median per thread count (other stages 1 ms), and a host name if given.
    static func report(board: String, host: String?, medians: [(threads: Int, milliseconds: Double)]) -> String {
        let results = medians.map { entry in
            let stages = BenchCommandTests.stages.map { name in
                let median = name == "invoke" || name == "end_to_end" ? entry.milliseconds : 1.0
                return "\"\(name)\": {\"median_ms\": \(median), \"p99_ms\": \(median)}"
            }.joined(separator: ", ")
            return "{\"threads\": \(entry.threads), \"images_per_second\": \(1000 / entry.milliseconds), \"stages\": {\(stages)}}"
        }.joined(separator: ", ")
        let hostField = host.map { ", \"host\": \"\($0)\"" } ?? ""
        return """
            {"schema_version": 3, "plantleaf_version": "0.1.0",
             "machine": {"architecture": "x86_64", "cpu_model": "cpu", "board": "\(board)", "cores": 2\(hostField)},
             "model": {"path": "m.tflite", "sha256": "ab"},
             "results": [\(results)]}
            """
    }

    /// The first `<svg class="speedup-chart" ...>` of `html`, to its `</svg>`.
    static func speedupChart(_ html: String) throws -> Substring {
        let start = try #require(html.range(of: "<svg class=\"speedup-chart\""))
        let end = try #require(html[start.lowerBound...].range(of: "</svg>"))
        return html[start.lowerBound..<end.upperBound]
    }

    /// The number in attribute `name` of the element `tag`.
    static func attribute(_ name: String, of tag: Substring) -> Double? {
        guard let start = tag.range(of: " \(name)=\"") else { return nil }
        return Double(tag[start.upperBound...].prefix { $0 != "\"" })
    }

    /// Every element of `svg` that starts with `prefix` (such as `<circle`), up to its `>`.
    static func elements(_ prefix: String, in svg: Substring) -> [Substring] {
        svg.ranges(of: prefix).map { range in svg[range.lowerBound...].prefix { $0 != ">" } }
    }

    /// The speed-up chart read back from its SVG numbers: the ideal line ends at 2x for 2 threads
    /// (as the grid's own 2x line places it), a report measured at 1 thread only has one dot and
    /// no end label, the three 1-thread dots sit side by side, and reports of an unknown board
    /// are named by their host or file.
    @Test func speedupChartReadsBackRight() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let a = folder + "/a.json", b = folder + "/b.json", c = folder + "/c.json", page = folder + "/page.html"
        TestImages.write(Array(Self.report(board: "unknown", host: "greenhouse-pi", medians: [(1, 8), (2, 6)]).utf8), to: a)
        TestImages.write(Array(Self.report(board: "unknown", host: nil, medians: [(1, 8)]).utf8), to: b)
        TestImages.write(Array(Self.report(board: "unknown", host: nil, medians: [(1, 9)]).utf8), to: c)
        let result = try runPlantLeaf(["bench", "compare", "--html", page, a, b, c], timeLimit: 60)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let svg = try Self.speedupChart(html)

        // The grid lines carry their value: y of a value, from the lines of 0x and of the top.
        let grid = Self.elements("<line class=\"grid\"", in: svg).compactMap { line -> (value: Double, y: Double)? in
            guard let value = Self.attribute("data-value", of: line), let y = Self.attribute("y1", of: line) else { return nil }
            return (value, y)
        }
        let bottom = try #require(grid.first { $0.value == 0 }), top = try #require(grid.max { $0.value < $1.value })
        func value(atY y: Double) -> Double { bottom.value + (y - bottom.y) / (top.y - bottom.y) * (top.value - bottom.value) }

        let ideal = try #require(Self.elements("<polyline class=\"ideal\"", in: svg).first)
        let pointsText = try #require(ideal.range(of: "points=\"")).upperBound
        let points = ideal[pointsText...].prefix { $0 != "\"" }.split(separator: " ").map { $0.split(separator: ",").compactMap { Double($0) } }
        #expect(points.count == 2)
        #expect(abs(value(atY: points[0][1]) - 1) < 0.01, "the ideal line starts at 1x: \(ideal)")
        #expect(abs(value(atY: points[1][1]) - 2) < 0.01, "the ideal line ends at 2x for 2 threads: \(ideal)")

        // One dot per thread count measured: A at 1 and 2 threads, B and C at 1 only.
        let series = svg.components(separatedBy: "<g class=\"series\" data-report=\"").dropFirst()
        #expect(series.count == 3)
        var oneThreadDots: [(x: Double, y: Double)] = []
        for (letter, group) in zip(["A", "B", "C"], series) {
            #expect(group.hasPrefix(letter + "\""))
            let circles = Self.elements("<circle", in: Substring(group))
            let threads = circles.compactMap { Self.attribute("data-threads", of: $0) }
            #expect(threads == (letter == "A" ? [1, 2] : [1]), "\(letter) has dots at \(threads) threads")
            for circle in circles where Self.attribute("data-threads", of: circle) == 1 {
                oneThreadDots.append((try #require(Self.attribute("cx", of: circle)), try #require(Self.attribute("cy", of: circle))))
            }
            // Only a report with a line has an end label, and it names where it ends.
            let labels = Self.elements("<text class=\"label\"", in: Substring(group))
            #expect(labels.count == (letter == "A" ? 1 : 0), "\(letter): \(group)")
        }
        #expect(svg.contains(">A · greenhouse-pi 1.33x at 2 threads</text>"))
        // All three 1-thread dots are at 1.00x; no two cover each other.
        #expect(oneThreadDots.count == 3)
        for dot in oneThreadDots { #expect(abs(value(atY: dot.y) - 1) < 0.01) }
        for (first, second) in [(0, 1), (0, 2), (1, 2)] {
            let apart = abs(oneThreadDots[first].x - oneThreadDots[second].x)
            #expect(apart >= 8, "dots \(first) and \(second) are \(apart) px apart")
        }

        // Named by host, or by file where the report has none; never "unknown".
        #expect(html.contains(">A · greenhouse-pi · 1 thread</text>"))
        #expect(html.contains(">B · b.json · 1 thread</text>"))
        #expect(html.contains(">C · c.json · 1 thread</text>"))
        #expect(!html.contains("· unknown"))
    }

    /// Medians at the ends of what compare accepts (a day at 1 thread, 0.0001 ms at 2: a speed-up
    /// of 864 billion) give finite axes with a few ticks; the page is written, in time.
    @Test func extremeMediansGiveBoundedCharts() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let a = folder + "/a.json", b = folder + "/b.json", page = folder + "/page.html"
        TestImages.write(Array(Self.report(board: "x", host: nil, medians: [(1, 86_400_000), (2, 0.0001)]).utf8), to: a)
        TestImages.write(Array(Self.report(board: "y", host: nil, medians: [(1, 8)]).utf8), to: b)
        let result = try runPlantLeaf(["bench", "compare", "--html", page, a, b], timeLimit: 60)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.utf8.count < 200_000)
        let svg = try Self.speedupChart(html)
        let ticks = Self.elements("<line class=\"grid\"", in: svg)
        #expect(ticks.count >= 2 && ticks.count <= 12)
        #expect(!html.contains("inf") && !html.contains("nan"))
        // The text says the 2-thread time is under a microsecond, not that it is none.
        let invoke = try #require(result.stdoutLines.last { $0.hasPrefix("  invoke") })
        #expect(invoke.split(separator: " ")[1] == "<0.001", "\(invoke)")
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
