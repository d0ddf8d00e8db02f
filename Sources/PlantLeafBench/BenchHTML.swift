import Glibc
import PlantLeafCore
import PlantLeafSupport

/// `plantleaf bench compare --html FILE`: the comparison as one self-contained page (inline CSS
/// and SVG, a few lines of inline script, nothing fetched): per stage one chart with a
/// box-and-whisker bar per report and thread count, each report's speed-up over its thread
/// counts, and the op profiles. Every text taken from a report (or a path) is HTML-escaped:
/// reports are untrusted input.
public enum BenchHTML {
    /// Colours of the reports A, B, C … (Okabe–Ito, told apart with colour blindness), repeated past eight.
    static let colours = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999999"]

    /// The class of each stage's chart (one per stage), and of the speed-up charts.
    public static let stageChartClass = "stage-chart"
    public static let speedupChartClass = "speedup-chart"

    /// The whole page.
    public static func render(_ reports: [(path: String, report: StoredBenchReport)]) -> String {
        let letters = reports.indices.map(letter)
        var html: [String] = []
        html.append("<!DOCTYPE html>")
        html.append("<html lang=\"en\">")
        html.append("<head>")
        html.append("<meta charset=\"utf-8\">")
        html.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        html.append("<title>PlantLeaf benchmark comparison</title>")
        html.append("<style>" + style + "</style>")
        html.append("</head>")
        html.append("<body>")
        html.append("<h1>PlantLeaf benchmark comparison</h1>")
        let scope = ComparisonScope(reports.map(\.report))
        html += reportTable(reports, letters: letters)
        html += notes(reports, letters: letters, cuts: scope.cuts)
        html += summary(reports, letters: letters, scope: scope)
        html += stageCharts(reports, letters: letters, scope: scope)
        html += speedup(reports, letters: letters, scope: scope)
        html += profiles(reports, letters: letters, scope: scope)
        html.append("<script>" + script + "</script>")
        html.append("</body>")
        html.append("</html>")
        return html.joined(separator: "\n") + "\n"
    }

    // MARK: - Escaping

    /// `text` safe inside an element or a quoted attribute (`HTMLText`, as serve's pages).
    public static func escape(_ text: String) -> String { HTMLText.escaped(text) }

    // MARK: - Sections

    /// A, B, C … as in the text comparison; past Z numbered.
    static func letter(_ index: Int) -> String {
        index < 26 ? String(UnicodeScalar(UInt8(65 + index))) : "#\(index + 1)"
    }

    static func colour(_ index: Int) -> String { colours[index % colours.count] }

    /// How the charts name a report: its board; where the board is unknown, its host name, or
    /// else its file's name, so that reports of unnamed boards are still told apart.
    static func displayName(_ entry: (path: String, report: StoredBenchReport)) -> String {
        func known(_ text: String?) -> String? {
            guard let text, !text.isEmpty, text != MachineInfo.unknown else { return nil }
            return text
        }
        let machine = entry.report.machine
        let file = entry.path.split(separator: "/").last.map(String.init) ?? entry.path
        return known(machine.board) ?? known(machine.host) ?? file
    }

    private static func swatch(_ index: Int) -> String {
        "<span class=\"swatch\" style=\"background:\(colour(index))\"></span>"
    }

    private static func reportTable(_ reports: [(path: String, report: StoredBenchReport)], letters: [String]) -> [String] {
        var html = ["<h2>Reports</h2>", "<table class=\"reports\">",
                    "<tr><th></th><th>file</th><th>board</th><th>host</th><th>CPU</th><th>cores</th><th>architecture</th><th>plantleaf</th></tr>"]
        for (index, entry) in reports.enumerated() {
            let machine = entry.report.machine
            let cells = [escape(entry.path), escape(machine.board), escape(machine.host ?? MachineInfo.unknown), escape(machine.cpuModel),
                         machine.cores.map(String.init) ?? "unknown", escape(machine.architecture), escape(entry.report.plantleafVersion)]
            html.append("<tr><th>" + swatch(index) + letters[index] + "</th><td>" + cells.joined(separator: "</td><td>") + "</td></tr>")
        }
        html.append("</table>")
        return html
    }

    /// The text comparison's notes (what differs from A), each report's warnings, and what the page leaves out.
    private static func notes(_ reports: [(path: String, report: StoredBenchReport)], letters: [String], cuts: [String]) -> [String] {
        guard let first = reports.first else { return [] }
        var items = cuts.map { "<li class=\"cut\">" + escape($0) + "</li>" }
        for (letter, entry) in zip(letters, reports).dropFirst() {
            items += BenchComparison.differences(entry.report, letter: letter, from: first.report).map { "<li class=\"note\">" + escape($0) + "</li>" }
        }
        for (letter, entry) in zip(letters, reports) {
            for warning in entry.report.warnings ?? [] {
                items.append("<li class=\"warning\">warning: " + letter + " measured under: " + escape(warning) + "</li>")
            }
        }
        guard !items.isEmpty else { return [] }
        return ["<ul class=\"notes\">"] + items + ["</ul>"]
    }

    /// Per thread count: the reports by end-to-end median, fastest first, each as a multiple of the fastest.
    private static func summary(_ reports: [(path: String, report: StoredBenchReport)], letters: [String], scope: ComparisonScope) -> [String] {
        var html = ["<h2>At a glance: end to end, median</h2>", "<ul class=\"summary\">"]
        for threads in scope.threadCounts {
            var ranked: [(index: Int, median: Double)] = []
            for index in reports.indices {
                guard let median = spread(scope.result(index, threads: threads), name: BenchStage.endToEnd.rawValue)?.median else { continue }
                ranked.append((index, median))
            }
            ranked.sort { $0.median < $1.median }
            guard let fastest = ranked.first else { continue }
            var parts: [String] = []
            for entry in ranked {
                let name = letters[entry.index] + " (" + escape(displayName(reports[entry.index])) + ")"
                let times = BenchText.reportedMilliseconds(entry.median) + " ms"
                let ratio = entry.index == fastest.index ? "fastest" : BenchText.ratio(entry.median / fastest.median) + " the fastest's time"
                parts.append(swatch(entry.index) + "<b>" + name + "</b> " + times + ", " + ratio)
            }
            html.append("<li>" + threadsText(threads) + ": " + parts.joined(separator: "; ") + "</li>")
        }
        html.append("</ul>")
        return html
    }

    private static func threadsText(_ threads: Int) -> String { "\(threads) thread" + (threads == 1 ? "" : "s") }

    // MARK: - Stage charts

    /// A stage's numbers from a report, each kept only when it is a plausible time.
    struct Spread {
        var min: Double?
        var p25: Double?
        var median: Double?
        var p75: Double?
        var p99: Double?
        var max: Double?
    }

    static func time(_ value: Double?) -> Double? {
        guard let value, value.isFinite, value >= 0, value <= StoredBenchReport.longestTime else { return nil }
        return value
    }

    /// Stage `name` of `result`, or nil when the result or its median is missing.
    static func spread(_ result: StoredBenchReport.Result?, name: String) -> Spread? {
        guard let result, let entry = result.stages[name], let entry else { return nil }
        let spread = Spread(min: time(entry.minMs), p25: time(entry.p25Ms), median: time(entry.medianMs), p75: time(entry.p75Ms),
                            p99: time(entry.p99Ms), max: time(entry.maxMs))
        return spread.median == nil ? nil : spread
    }

    /// A step of 1, 2 or 5 times a power of ten that divides `span` into about five.
    static func tickStep(_ span: Double) -> Double {
        guard span > 0, span.isFinite else { return 1 }
        let raw = span / 5
        let magnitude = pow(10, floor(log10(raw)))
        let residual = raw / magnitude
        let nice: Double = residual <= 1 ? 1 : (residual <= 2 ? 2 : (residual <= 5 ? 5 : 10))
        let step = nice * magnitude
        // Near the ends of Double's range the power of ten is 0 or infinite: one step spans it all.
        return step > 0 && step.isFinite ? step : span
    }

    /// The most ticks an axis has: `tickStep` gives about six, and the bound holds for any input.
    static let mostTicks = 12

    /// An axis from 0 to at least `highest`: its step, its top (a whole number of steps) and the
    /// tick values, at most `mostTicks` of them. A span that is not a finite number above 0 gets
    /// the axis of 1. Counted in whole steps, never by adding a step that may be too small to
    /// change a large sum.
    static func axis(highest: Double) -> (step: Double, top: Double, ticks: [Double]) {
        guard highest > 0, highest.isFinite else { return (1, 1, [0, 1]) }
        let step = tickStep(highest)
        let steps = Swift.min(Swift.max((highest / step).rounded(.up), 1), Double(mostTicks - 1))
        let top = Swift.max(steps * step, highest)
        // Within a step of Double's largest value the top rounds to infinity: the axis is one step.
        guard top.isFinite else { return (highest, highest, [0, highest]) }
        return (step, top, (0...Int(steps)).map { Double($0) * step })
    }

    static func number(_ value: Double) -> String { DecimalText.fixed(value, decimals: 1) }

    /// Text cut to `limit` characters, with … when cut.
    static func shortened(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    private static func stageCharts(_ reports: [(path: String, report: StoredBenchReport)], letters: [String], scope: ComparisonScope) -> [String] {
        var html = ["<h2>Latency per stage</h2>",
                    "<p class=\"legend\">One bar per report and thread count: the box spans the middle half of the runs "
                        + "(p25 to p75), the thick line is the median, the whisker runs from the fastest run to the 99th percentile; "
                        + "a short box means steady times. The scale starts at 0 ms in every chart.</p>"]
        for name in scope.stageNames {
            html += stageChart(name: name, reports: reports, letters: letters, scope: scope)
        }
        return html
    }

    private static let chartWidth = 1090.0
    private static let labelWidth = 270.0
    private static let plotWidth = 430.0
    private static let rowHeight = 28.0
    private static let axisHeight = 30.0

    private static func stageChart(name: String, reports: [(path: String, report: StoredBenchReport)], letters: [String],
                                   scope: ComparisonScope) -> [String] {
        var rows: [(index: Int, threads: Int, spread: Spread?)] = []
        for threads in scope.threadCounts {
            for index in reports.indices {
                guard let result = scope.result(index, threads: threads) else { continue }
                rows.append((index, threads, spread(result, name: name)))
            }
        }
        var highest = 0.0
        for row in rows {
            guard let spread = row.spread else { continue }
            for value in [spread.p99, spread.p75, spread.median] { if let value { highest = Swift.max(highest, value) } }
        }
        let (step, top, ticks) = axis(highest: highest)
        func x(_ value: Double) -> Double { labelWidth + plotWidth * Swift.min(value, top) / top }

        let height = Double(rows.count) * rowHeight + axisHeight + 6
        let title = BenchStage(rawValue: name)?.title ?? name
        var svg: [String] = []
        svg.append("<figure class=\"stage\">")
        svg.append("<figcaption>" + escape(title) + " <span class=\"unit\">(ms)</span></figcaption>")
        svg.append("<svg class=\"\(stageChartClass)\" data-stage=\"" + escape(name) + "\" role=\"img\" viewBox=\"0 0 \(Int(chartWidth)) \(Int(height))\" "
            + "width=\"\(Int(chartWidth))\" height=\"\(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\">")
        svg.append("<title>" + escape(title) + ": latency per report and thread count</title>")
        // Grid and axis.
        let axisY = Double(rows.count) * rowHeight + 4
        for tick in ticks {
            let position = number(x(tick))
            svg.append("<line class=\"grid\" x1=\"\(position)\" y1=\"0\" x2=\"\(position)\" y2=\"\(number(axisY))\"/>")
            svg.append("<text class=\"tick\" x=\"\(position)\" y=\"\(number(axisY + 16))\" text-anchor=\"middle\">" + tickLabel(tick, step: step) + "</text>")
        }
        for (position, row) in rows.enumerated() {
            let middle = Double(position) * rowHeight + rowHeight / 2
            let colour = colour(row.index)
            let reportName = displayName(reports[row.index])
            let label = letters[row.index] + " · " + shortened(reportName, 26) + " · " + threadsText(row.threads)
            svg.append("<g class=\"row\" data-report=\"" + letters[row.index] + "\" data-threads=\"\(row.threads)\">")
            svg.append("<title>" + escape(letters[row.index] + " = " + reports[row.index].path + ": " + reportName) + ", " + threadsText(row.threads) + "</title>")
            svg.append("<text class=\"label\" x=\"\(number(labelWidth - 10))\" y=\"\(number(middle + 4))\" text-anchor=\"end\">" + escape(label) + "</text>")
            guard let spread = row.spread, let median = spread.median else {
                svg.append("<text class=\"value\" x=\"\(number(labelWidth + 4))\" y=\"\(number(middle + 4))\">not measured</text>")
                svg.append("</g>")
                continue
            }
            let low = spread.min ?? spread.p25 ?? median
            let high = spread.p99 ?? spread.p75 ?? median
            svg.append("<line class=\"whisker\" x1=\"\(number(x(low)))\" y1=\"\(number(middle))\" x2=\"\(number(x(high)))\" y2=\"\(number(middle))\" stroke=\"\(colour)\"/>")
            for end in [low, high] {
                svg.append("<line class=\"whisker\" x1=\"\(number(x(end)))\" y1=\"\(number(middle - 6))\" x2=\"\(number(x(end)))\" y2=\"\(number(middle + 6))\" stroke=\"\(colour)\"/>")
            }
            if let p25 = spread.p25, let p75 = spread.p75, p75 >= p25 {
                let width = Swift.max(x(p75) - x(p25), 1)
                svg.append("<rect class=\"box\" x=\"\(number(x(p25)))\" y=\"\(number(middle - 8))\" width=\"\(number(width))\" height=\"16\" "
                    + "fill=\"\(colour)\" fill-opacity=\"0.35\" stroke=\"\(colour)\"/>")
            }
            svg.append("<line class=\"median\" x1=\"\(number(x(median)))\" y1=\"\(number(middle - 10))\" x2=\"\(number(x(median)))\" y2=\"\(number(middle + 10))\" stroke=\"\(colour)\"/>")
            svg.append("<text class=\"value\" x=\"\(number(labelWidth + plotWidth + 12))\" y=\"\(number(middle + 4))\">" + valueText(spread, median: median) + "</text>")
            svg.append("</g>")
        }
        svg.append("</svg>")
        svg.append("</figure>")
        return svg
    }

    /// A tick's value with the decimals its step needs, at most four: no report's time is under
    /// `StoredBenchReport.shortestTime` (0.0001 ms), so finer steps do not occur.
    private static func tickLabel(_ value: Double, step: Double) -> String {
        let decimals = step >= 1 ? 0 : Swift.min(Int((-log10(step)).rounded(.up)), 4)
        return DecimalText.fixed(value, decimals: decimals)
    }

    /// "median 8.000 · p25–p75 7.500–8.500 · p99 9.500 (1.19x median) · max 12.000"
    private static func valueText(_ spread: Spread, median: Double) -> String {
        var parts = ["median " + BenchText.reportedMilliseconds(median)]
        if let p25 = spread.p25, let p75 = spread.p75 {
            parts.append("IQR " + BenchText.reportedMilliseconds(p25) + "–" + BenchText.reportedMilliseconds(p75))
        }
        if let p99 = spread.p99 {
            let ratio = median > 0 ? " (" + BenchText.ratio(p99 / median) + ")" : ""
            parts.append("p99 " + BenchText.reportedMilliseconds(p99) + ratio)
        }
        return parts.joined(separator: " · ")
    }

    // MARK: - Speed-up

    /// Each report's invoke and end-to-end speed-up over its thread counts (its median with one
    /// thread, or its fewest threads, over each count's median), and images per second.
    private static func speedup(_ reports: [(path: String, report: StoredBenchReport)], letters: [String], scope: ComparisonScope) -> [String] {
        var html = ["<h2>Speed-up over threads</h2>"]
        let drawn = reports.indices.contains { index in scope.threadCounts.filter { scope.result(index, threads: $0) != nil }.count > 1 }
        if drawn {
            html.append("<p class=\"legend\">Each report's median against its own median with 1 thread (or its fewest threads): "
                + "2.0 = twice as fast. The dashed line is perfect scaling: N times as fast with N times the threads. "
                + "A report is drawn only at the thread counts it measured; dots that would hide each other are set side by side.</p>")
            for name in [BenchStage.invoke.rawValue, BenchStage.endToEnd.rawValue] {
                html += speedupChart(name: name, reports: reports, letters: letters, scope: scope)
            }
        } else {
            html.append("<p class=\"legend\">Every report measured a single thread count: there is no speed-up to draw "
                + "(measure with <code>plantleaf bench --threads 1,2,4</code>).</p>")
        }
        let threadHeaders: String = scope.threadCounts.map { "<th>" + threadsText($0) + "</th>" }.joined()
        html.append("<table class=\"throughput\"><tr><th>images/s</th>" + threadHeaders + "</tr>")
        for (index, entry) in reports.enumerated() {
            var cells: [String] = []
            for threads in scope.threadCounts {
                let rate = scope.result(index, threads: threads)?.imagesPerSecond
                let shown: String = rate.map { DecimalText.fixed($0, decimals: 1) } ?? "-"
                cells.append("<td>" + shown + "</td>")
            }
            html.append("<tr><th>" + swatch(index) + letters[index] + " · " + escape(shortened(displayName(entry), 40)) + "</th>" + cells.joined() + "</tr>")
        }
        html.append("</table>")
        return html
    }

    /// One report's speed-ups of a stage: the thread count they are measured against, and
    /// (threads, speed-up) at each thread count it measured, fewest threads first.
    struct SpeedupLine {
        var baselineThreads: Int
        var points: [(threads: Int, speedup: Double)]
    }

    /// The speed-ups of `name` in report `index` at the thread counts `scope` shows: against its
    /// 1-thread median, or its fewest threads' where it has none; nil when that median is missing.
    static func speedups(_ scope: ComparisonScope, report index: Int, name: String) -> SpeedupLine? {
        let measured = scope.threadCounts.filter { scope.result(index, threads: $0) != nil }
        guard let baselineThreads = measured.first,
              let base = spread(scope.result(index, threads: baselineThreads), name: name)?.median, base > 0 else { return nil }
        var points: [(threads: Int, speedup: Double)] = []
        for threads in measured {
            guard let median = spread(scope.result(index, threads: threads), name: name)?.median, median > 0 else { continue }
            points.append((threads, base / median))
        }
        return SpeedupLine(baselineThreads: baselineThreads, points: points)
    }

    /// Dot radius in the speed-up charts; dots closer than its diameter and a pixel are moved apart.
    private static let dotRadius = 4.0

    /// Horizontal offsets that keep dots at one thread count apart: `heights` are the dots' y
    /// positions; dots less than a diameter apart form a group, set side by side around the
    /// thread count's x. One offset per dot, in the order given.
    static func sideBySideOffsets(_ heights: [Double]) -> [Double] {
        let spacing = 2 * dotRadius + 1
        let order = heights.indices.sorted { heights[$0] < heights[$1] }
        var offsets = [Double](repeating: 0, count: heights.count)
        var group: [Int] = []
        func place() {
            for (position, dot) in group.enumerated() { offsets[dot] = (Double(position) - Double(group.count - 1) / 2) * spacing }
            group = []
        }
        for dot in order {
            if let last = group.last, heights[dot] - heights[last] >= spacing { place() }
            group.append(dot)
        }
        place()
        return offsets
    }

    private static func speedupChart(name: String, reports: [(path: String, report: StoredBenchReport)], letters: [String],
                                     scope: ComparisonScope) -> [String] {
        let width = 720.0, height = 320.0, left = 50.0, right = 250.0, topMargin = 14.0, bottom = 40.0
        let threadCounts = scope.threadCounts
        let lines = reports.indices.map { speedups(scope, report: $0, name: name) }
        // Perfect scaling from each baseline some report measured against: N/b at N threads.
        let baselines = Set(lines.compactMap { $0?.baselineThreads }).sorted()
        let ideals = baselines.map { baseline in
            (baseline, threadCounts.filter { $0 >= baseline }.map { (threads: $0, speedup: Double($0) / Double(baseline)) })
        }
        var highest = 1.0
        for line in lines.compactMap({ $0 }) {
            for point in line.points { highest = Swift.max(highest, point.speedup) }
        }
        for (_, points) in ideals {
            for point in points { highest = Swift.max(highest, point.speedup) }
        }
        let (step, top, ticks) = axis(highest: highest)
        let plotWidth = width - left - right, plotHeight = height - topMargin - bottom
        var positions: [Int: Int] = [:]
        for (position, threads) in threadCounts.enumerated() { positions[threads] = position }
        func x(_ threads: Int) -> Double {
            guard threadCounts.count > 1, let position = positions[threads] else { return left + plotWidth / 2 }
            return left + plotWidth * Double(position) / Double(threadCounts.count - 1)
        }
        func y(_ value: Double) -> Double { topMargin + plotHeight * (1 - Swift.min(value, top) / top) }

        let title = BenchStage(rawValue: name)?.title ?? name
        var svg = ["<figure class=\"speedup\">", "<figcaption>" + escape(title) + ": speed-up over threads</figcaption>",
                   "<svg class=\"\(speedupChartClass)\" data-stage=\"" + escape(name) + "\" role=\"img\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" "
                    + "width=\"\(Int(width))\" height=\"\(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\">",
                   "<title>" + escape(title) + ": speed-up over threads</title>"]
        for tick in ticks {
            svg.append("<line class=\"grid\" data-value=\"" + tickLabel(tick, step: step) + "\" x1=\"\(number(left))\" y1=\"\(number(y(tick)))\" "
                + "x2=\"\(number(left + plotWidth))\" y2=\"\(number(y(tick)))\"/>")
            svg.append("<text class=\"tick\" x=\"\(number(left - 6))\" y=\"\(number(y(tick) + 4))\" text-anchor=\"end\">" + tickLabel(tick, step: step) + "x</text>")
        }
        for threads in threadCounts {
            svg.append("<text class=\"tick\" x=\"\(number(x(threads)))\" y=\"\(number(height - bottom + 18))\" text-anchor=\"middle\">\(threads)</text>")
        }
        svg.append("<text class=\"tick\" x=\"\(number(left + plotWidth / 2))\" y=\"\(number(height - 6))\" text-anchor=\"middle\">threads</text>")
        for (baseline, points) in ideals where points.count > 1 {
            let text = points.map { number(x($0.threads)) + "," + number(y($0.speedup)) }.joined(separator: " ")
            svg.append("<polyline class=\"ideal\" data-baseline=\"\(baseline)\" points=\"" + text + "\"/>")
        }
        // Each dot's place: at its thread count, moved aside where it would cover another.
        var dots: [[(x: Double, y: Double)]] = lines.map { line in (line?.points ?? []).map { (x($0.threads), y($0.speedup)) } }
        var dotsByThreads: [Int: [(line: Int, point: Int)]] = [:]
        for (index, line) in lines.enumerated() {
            for (point, entry) in (line?.points ?? []).enumerated() { dotsByThreads[entry.threads, default: []].append((index, point)) }
        }
        for members in dotsByThreads.values where members.count > 1 {
            let offsets = sideBySideOffsets(members.map { dots[$0.line][$0.point].y })
            for (member, offset) in zip(members, offsets) { dots[member.line][member.point].x += offset }
        }
        // The end labels of reports with a line, top to bottom, each at least a line below the one above it.
        var labelPositions: [Int: Double] = [:]
        var ends: [(index: Int, y: Double)] = []
        for (index, line) in lines.enumerated() {
            if let line, line.points.count > 1, let last = dots[index].last { ends.append((index, last.y)) }
        }
        ends.sort { $0.y < $1.y }
        var previous = -Double.infinity
        for end in ends {
            let position = Swift.max(end.y, previous + 14)
            labelPositions[end.index] = position
            previous = position
        }
        for (index, line) in lines.enumerated() {
            guard let line, !line.points.isEmpty else { continue }
            let colour = colour(index)
            svg.append("<g class=\"series\" data-report=\"" + letters[index] + "\">")
            if line.points.count > 1 {
                let text = dots[index].map { number($0.x) + "," + number($0.y) }.joined(separator: " ")
                svg.append("<polyline points=\"" + text + "\" stroke=\"\(colour)\" fill=\"none\" stroke-width=\"2.5\"/>")
            }
            for (point, dot) in zip(line.points, dots[index]) {
                svg.append("<circle data-threads=\"\(point.threads)\" cx=\"\(number(dot.x))\" cy=\"\(number(dot.y))\" r=\"\(number(dotRadius))\" fill=\"\(colour)\">"
                    + "<title>" + letters[index] + ", " + threadsText(point.threads) + ": " + BenchText.ratio(point.speedup) + "</title></circle>")
            }
            // A report measured at one thread count has no speed-up to state: its dot is its own baseline.
            if line.points.count > 1, let last = line.points.last, let labelY = labelPositions[index] {
                let label = letters[index] + " · " + shortened(displayName(reports[index]), 16) + " " + BenchText.ratio(last.speedup)
                    + " at " + threadsText(last.threads)
                svg.append("<text class=\"label\" x=\"\(number(left + plotWidth + 8))\" y=\"\(number(labelY + 4))\" fill=\"\(colour)\">" + escape(label) + "</text>")
            }
            svg.append("</g>")
        }
        svg.append("</svg>")
        svg.append("</figure>")
        return svg
    }

    // MARK: - Op profiles

    /// Ops listed per report and thread count.
    static let slowestOpsShown = 10

    /// Per thread count where any report has a profile (`--profile`): the op types side by side
    /// with bars on one scale, and each report's slowest ops.
    private static func profiles(_ reports: [(path: String, report: StoredBenchReport)], letters: [String], scope: ComparisonScope) -> [String] {
        var html: [String] = []
        for threads in scope.threadCounts {
            var profiled: [(index: Int, profile: StoredBenchReport.Profile)] = []
            for index in reports.indices {
                if let profile = scope.result(index, threads: threads)?.profile { profiled.append((index, profile)) }
            }
            guard !profiled.isEmpty else { continue }
            html.append("<h2>Op profile, " + threadsText(threads) + "</h2>")
            html.append("<p class=\"legend\">Median ms per invoke of each op type (summed over its ops), one bar per report on one scale.</p>")
            let (names, total) = ComparisonScope.opTypeNames(profiled.map(\.profile))
            let types = profiled.map { entry in Dictionary(entry.profile.opTypes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }) }
            var widest = 0.0
            for entry in profiled {
                for type in entry.profile.opTypes {
                    if let value = time(type.medianMs) { widest = Swift.max(widest, value) }
                }
            }
            var header = "<tr><th>op type</th>"
            for entry in profiled {
                let name: String = letters[entry.index]
                header += "<th>" + swatch(entry.index) + name + " count</th><th>" + name + " ms</th>"
            }
            header += "<th class=\"bars\"></th></tr>"
            var table = ["<table class=\"profile\" data-threads=\"\(threads)\">", header]
            for name in names {
                var cells = "<td>" + escape(name) + "</td>"
                var bars = ""
                for (entry, byName) in zip(profiled, types) {
                    let type = byName[name]
                    let value = time(type?.medianMs)
                    let count: String = type.map { String($0.count) } ?? "-"
                    let shown: String = value.map { DecimalText.fixed($0, decimals: 4) } ?? "-"
                    cells += "<td>" + count + "</td><td>" + shown + "</td>"
                    let share = widest > 0 ? 100 * (value ?? 0) / widest : 0
                    bars += "<span class=\"bar\" style=\"width:" + number(share) + "%;background:" + colour(entry.index) + "\"></span>"
                }
                table.append("<tr>" + cells + "<td class=\"bars\">" + bars + "</td></tr>")
            }
            table.append("</table>")
            html += table
            if let cut = ComparisonScope.opTypeCut(shown: names.count, total: total) { html.append("<p class=\"cut\">" + escape(cut) + "</p>") }
            for entry in profiled {
                html.append("<h3>" + swatch(entry.index) + letters[entry.index] + ": the \(slowestOpsShown) slowest ops, " + threadsText(threads) + "</h3>")
                let ops = entry.profile.ops.enumerated().sorted { ($0.element.medianMs, -$0.offset) > ($1.element.medianMs, -$1.offset) }
                    .prefix(slowestOpsShown).map(\.element)
                html.append("<table class=\"ops\"><tr><th>op</th><th>node</th><th>ms</th></tr>")
                for op in ops {
                    let kernel = op.xnnpack ? "" : " (TFLite)"
                    let value = time(op.medianMs).map { DecimalText.fixed($0, decimals: 4) } ?? "-"
                    html.append("<tr><td>" + escape(op.name + kernel) + "</td><td>\(op.node)</td><td>" + value + "</td></tr>")
                }
                html.append("</table>")
            }
        }
        return html
    }

    // MARK: - Style and script

    private static let style = """
        body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:24px;color:#222;background:#fff;max-width:1140px}
        h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ddd}h3{font-size:1em}
        table{border-collapse:collapse;margin:8px 0}th,td{padding:3px 10px;border-bottom:1px solid #eee;text-align:left;vertical-align:middle}
        td{font-variant-numeric:tabular-nums}.swatch{display:inline-block;width:12px;height:12px;margin-right:6px;border-radius:2px;vertical-align:-1px}
        .notes li.warning{color:#a40}.legend{color:#555;font-size:.92em}figure{margin:12px 0}figcaption{font-weight:600;margin-bottom:4px}
        .unit{font-weight:400;color:#777}svg{max-width:100%;height:auto;font-size:12px}svg .grid{stroke:#e4e4e4}
        svg .tick{fill:#666}svg .label{fill:#222}svg .value{fill:#333}svg .whisker{stroke-width:1.5}svg .median{stroke-width:3.5}
        svg .ideal{stroke:#999;stroke-dasharray:5 4;fill:none}td.bars{width:320px}.bar{display:block;height:6px;margin:1px 0;min-width:1px}
        """

    /// Marks the page as drawn: the number of stage charts the browser laid out with a size, on
    /// `<body data-charts-drawn>`, so a headless browser's DOM shows the charts rendered.
    private static let script = """
        (function(){var drawn=0;document.querySelectorAll("svg.\(stageChartClass)").forEach(function(chart){var box=chart.getBoundingClientRect();if(box.width>0&&box.height>0){drawn+=1;}});document.body.setAttribute("data-charts-drawn",String(drawn));})();
        """
}
