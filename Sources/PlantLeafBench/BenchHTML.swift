import Glibc
import PlantLeafCore
import PlantLeafSupport

/// `plantleaf bench compare --html FILE`: the comparison as one self-contained page (inline CSS
/// and SVG, a few lines of inline script, nothing fetched): per stage one chart with a
/// box-and-whisker bar per report and thread count, each report's speed-up over its thread
/// counts, and the op profiles. The page's markup, style and script are the files under
/// Embedded/ (report.html and its pieces, report.css, report.js); here are the numbers and names
/// filled into them. Every text taken from a report (or a path) is HTML-escaped: reports are
/// untrusted input.
public enum BenchHTML {
    /// Colours of the reports A, B, C … (Okabe–Ito, told apart with colour blindness), repeated past eight.
    static let colours = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#999999"]

    /// The page's template and its pieces.
    static let template = PageTemplate(EmbeddedFiles.text)

    /// The whole page.
    public static func render(_ reports: [(path: String, report: StoredBenchReport)]) -> String {
        let letters = reports.indices.map(letter)
        let scope = ComparisonScope(reports.map(\.report))
        return template.render("report.html", [
            "style": template.render("report.css"),
            "reports": reportTable(reports, letters: letters),
            "notes": notes(reports, letters: letters, cuts: scope.cuts),
            "summary": summary(reports, letters: letters, scope: scope),
            "stages": stageCharts(reports, letters: letters, scope: scope),
            "speedup": speedup(reports, letters: letters, scope: scope),
            "profiles": profiles(reports, letters: letters, scope: scope),
            // Marks the page as drawn: the number of stage charts the browser laid out with a
            // size, on <body data-charts-drawn>, so a headless browser's DOM shows them rendered.
            "script": template.render("report.js"),
        ]) + "\n"  // the template's last line end, which the loader leaves out
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
        template.render("swatch.html", ["colour": colour(index)])
    }

    private static func reportTable(_ reports: [(path: String, report: StoredBenchReport)], letters: [String]) -> String {
        let rows = reports.enumerated().map { index, entry in
            let machine = entry.report.machine
            return template.render("report-row.html", [
                "swatch": swatch(index), "letter": letters[index], "file": escape(entry.path), "board": escape(machine.board),
                "host": escape(machine.host ?? MachineInfo.unknown), "cpu": escape(machine.cpuModel), "cores": machine.cores.map(String.init) ?? "unknown",
                "architecture": escape(machine.architecture), "version": escape(entry.report.plantleafVersion),
            ])
        }
        return template.render("reports.html", ["rows": PageTemplate.lineByLine(rows)])
    }

    /// The text comparison's notes (what differs from A), each report's warnings, and what the page leaves out.
    private static func notes(_ reports: [(path: String, report: StoredBenchReport)], letters: [String], cuts: [String]) -> String {
        guard let first = reports.first else { return "" }
        var items = cuts.map { template.render("note.html", ["kind": "cut", "text": escape($0)]) }
        for (letter, entry) in zip(letters, reports).dropFirst() {
            items += BenchComparison.differences(entry.report, letter: letter, from: first.report).map { template.render("note.html", ["kind": "note", "text": escape($0)]) }
        }
        for (letter, entry) in zip(letters, reports) {
            for warning in entry.report.warnings ?? [] {
                items.append(template.render("warning.html", ["letter": letter, "warning": escape(warning)]))
            }
        }
        guard !items.isEmpty else { return "" }
        return template.render("notes.html", ["items": PageTemplate.lineByLine(items)])
    }

    /// Per thread count: the reports by end-to-end median, fastest first, each as a multiple of the fastest.
    private static func summary(_ reports: [(path: String, report: StoredBenchReport)], letters: [String], scope: ComparisonScope) -> String {
        var items: [String] = []
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
                let ratio = entry.index == fastest.index ? "fastest" : BenchText.ratio(entry.median / fastest.median) + " the fastest's time"
                parts.append(template.render("summary-report.html", [
                    "swatch": swatch(entry.index), "letter": letters[entry.index], "name": escape(displayName(reports[entry.index])),
                    "time": BenchText.reportedMilliseconds(entry.median), "ratio": ratio,
                ]))
            }
            items.append(template.render("summary-line.html", ["threads": threadsText(threads), "reports": parts.joined(separator: "; ")]))
        }
        return template.render("summary.html", ["lines": PageTemplate.lineByLine(items)])
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

    private static func stageCharts(_ reports: [(path: String, report: StoredBenchReport)], letters: [String], scope: ComparisonScope) -> String {
        let charts = scope.stageNames.map { stageChart(name: $0, reports: reports, letters: letters, scope: scope) }
        return template.render("stages.html", ["charts": PageTemplate.lineByLine(charts)])
    }

    private static let chartWidth = 1090.0
    private static let labelWidth = 270.0
    private static let plotWidth = 430.0
    private static let rowHeight = 28.0
    private static let axisHeight = 30.0

    private static func stageChart(name: String, reports: [(path: String, report: StoredBenchReport)], letters: [String],
                                   scope: ComparisonScope) -> String {
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
        // Grid and axis.
        let axisY = Double(rows.count) * rowHeight + 4
        let tickLines = ticks.map { tick in
            template.render("stage-tick.html", ["x": number(x(tick)), "axis-y": number(axisY), "label-y": number(axisY + 16), "label": tickLabel(tick, step: step)])
        }
        let rowLines = rows.enumerated().map { position, row in
            let middle = Double(position) * rowHeight + rowHeight / 2
            let colour = colour(row.index)
            let reportName = displayName(reports[row.index])
            let label = letters[row.index] + " · " + shortened(reportName, 26) + " · " + threadsText(row.threads)
            let bar: String
            if let spread = row.spread, let median = spread.median {
                let low = spread.min ?? spread.p25 ?? median
                let high = spread.p99 ?? spread.p75 ?? median
                var box = ""
                if let p25 = spread.p25, let p75 = spread.p75, p75 >= p25 {
                    box = template.render("stage-box.html", ["x": number(x(p25)), "y": number(middle - 8), "width": number(Swift.max(x(p75) - x(p25), 1)), "colour": colour])
                }
                bar = template.render("stage-bar.html", [
                    "low": number(x(low)), "high": number(x(high)), "middle": number(middle), "whisker-top": number(middle - 6), "whisker-bottom": number(middle + 6),
                    "box": box, "median": number(x(median)), "median-top": number(middle - 10), "median-bottom": number(middle + 10), "colour": colour,
                    "value-x": number(labelWidth + plotWidth + 12), "text-y": number(middle + 4), "value": valueText(spread, median: median),
                ])
            } else {
                bar = template.render("stage-unmeasured.html", ["x": number(labelWidth + 4), "text-y": number(middle + 4)])
            }
            return template.render("stage-row.html", [
                "letter": letters[row.index], "threads": String(row.threads),
                "title": escape(letters[row.index] + " = " + reports[row.index].path + ": " + reportName) + ", " + threadsText(row.threads),
                "label-x": number(labelWidth - 10), "text-y": number(middle + 4), "label": escape(label), "bar": bar,
            ])
        }
        return template.render("stage-chart.html", ["title": escape(title), "stage": escape(name), "width": String(Int(chartWidth)), "height": String(Int(height)),
                                                    "ticks": PageTemplate.lineByLine(tickLines), "rows": PageTemplate.lineByLine(rowLines)])
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
    private static func speedup(_ reports: [(path: String, report: StoredBenchReport)], letters: [String], scope: ComparisonScope) -> String {
        let drawn = reports.indices.contains { index in scope.threadCounts.filter { scope.result(index, threads: $0) != nil }.count > 1 }
        let charts = drawn
            ? template.render("speedup-charts.html", ["charts": PageTemplate.lineByLine([BenchStage.invoke.rawValue, BenchStage.endToEnd.rawValue].map {
                speedupChart(name: $0, reports: reports, letters: letters, scope: scope)
            })])
            : template.render("speedup-none.html")
        let headers = scope.threadCounts.map { template.render("heading-cell.html", ["text": threadsText($0)]) }.joined()
        let rows = reports.enumerated().map { index, entry in
            let cells = scope.threadCounts.map { threads in
                let rate = scope.result(index, threads: threads)?.imagesPerSecond
                return template.render("cell.html", ["text": rate.map { DecimalText.fixed($0, decimals: 1) } ?? "-"])
            }
            return template.render("throughput-row.html", ["swatch": swatch(index), "letter": letters[index], "name": escape(shortened(displayName(entry), 40)),
                                                           "cells": cells.joined()])
        }
        return template.render("speedup.html", ["charts": charts, "headers": headers, "rows": PageTemplate.lineByLine(rows)])
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
                                     scope: ComparisonScope) -> String {
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
        let tickLines = ticks.map { tick in
            template.render("speedup-tick.html", ["label": tickLabel(tick, step: step), "left": number(left), "right": number(left + plotWidth),
                                                  "y": number(y(tick)), "label-x": number(left - 6), "label-y": number(y(tick) + 4)])
        }
        let threadTicks = threadCounts.map { threads in
            template.render("thread-tick.html", ["x": number(x(threads)), "y": number(height - bottom + 18), "threads": String(threads)])
        }
        let idealLines = ideals.filter { $0.1.count > 1 }.map { baseline, points in
            template.render("ideal.html", ["baseline": String(baseline),
                                           "points": points.map { number(x($0.threads)) + "," + number(y($0.speedup)) }.joined(separator: " ")])
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
        var series: [String] = []
        for (index, line) in lines.enumerated() {
            guard let line, !line.points.isEmpty else { continue }
            let colour = colour(index)
            var polyline = "", label = ""
            if line.points.count > 1 {
                polyline = template.render("series-line.html", ["points": dots[index].map { number($0.x) + "," + number($0.y) }.joined(separator: " "), "colour": colour])
            }
            let circles = zip(line.points, dots[index]).map { point, dot in
                template.render("dot.html", ["threads": String(point.threads), "x": number(dot.x), "y": number(dot.y), "radius": number(dotRadius), "colour": colour,
                                             "letter": letters[index], "threads-text": threadsText(point.threads), "speedup": BenchText.ratio(point.speedup)])
            }
            // A report measured at one thread count has no speed-up to state: its dot is its own baseline.
            if line.points.count > 1, let last = line.points.last, let labelY = labelPositions[index] {
                let text = letters[index] + " · " + shortened(displayName(reports[index]), 16) + " " + BenchText.ratio(last.speedup)
                    + " at " + threadsText(last.threads)
                label = template.render("series-label.html", ["x": number(left + plotWidth + 8), "y": number(labelY + 4), "colour": colour, "label": escape(text)])
            }
            series.append(template.render("series.html", ["letter": letters[index], "line": polyline, "dots": PageTemplate.lineByLine(circles), "label": label]))
        }
        return template.render("speedup-chart.html", [
            "title": escape(title), "stage": escape(name), "width": String(Int(width)), "height": String(Int(height)),
            "ticks": PageTemplate.lineByLine(tickLines), "thread-ticks": PageTemplate.lineByLine(threadTicks),
            "axis-label-x": number(left + plotWidth / 2), "axis-label-y": number(height - 6), "ideals": PageTemplate.lineByLine(idealLines), "series": PageTemplate.lineByLine(series),
        ])
    }

    // MARK: - Op profiles

    /// Ops listed per report and thread count.
    static let slowestOpsShown = 10

    /// Per thread count where any report has a profile (`--profile`): the op types side by side
    /// with bars on one scale, and each report's slowest ops.
    private static func profiles(_ reports: [(path: String, report: StoredBenchReport)], letters: [String], scope: ComparisonScope) -> String {
        var sections: [String] = []
        for threads in scope.threadCounts {
            var profiled: [(index: Int, profile: StoredBenchReport.Profile)] = []
            for index in reports.indices {
                if let profile = scope.result(index, threads: threads)?.profile { profiled.append((index, profile)) }
            }
            guard !profiled.isEmpty else { continue }
            let (names, total) = ComparisonScope.opTypeNames(profiled.map(\.profile))
            let types = profiled.map { entry in Dictionary(entry.profile.opTypes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }) }
            var widest = 0.0
            for entry in profiled {
                for type in entry.profile.opTypes {
                    if let value = time(type.medianMs) { widest = Swift.max(widest, value) }
                }
            }
            let headers = profiled.map { template.render("profile-header.html", ["swatch": swatch($0.index), "letter": letters[$0.index]]) }.joined()
            let rows = names.map { name in
                var cells = "", bars = ""
                for (entry, byName) in zip(profiled, types) {
                    let type = byName[name]
                    let value = time(type?.medianMs)
                    cells += template.render("cell.html", ["text": type.map { String($0.count) } ?? "-"])
                    cells += template.render("cell.html", ["text": value.map { DecimalText.fixed($0, decimals: 4) } ?? "-"])
                    let share = widest > 0 ? 100 * (value ?? 0) / widest : 0
                    bars += template.render("bar.html", ["share": number(share), "colour": colour(entry.index)])
                }
                return template.render("profile-row.html", ["name": escape(name), "cells": cells, "bars": bars])
            }
            let cut = ComparisonScope.opTypeCut(shown: names.count, total: total).map { template.render("cut.html", ["text": escape($0)]) } ?? ""
            let slowest = profiled.map { entry in
                let ops = entry.profile.ops.enumerated().sorted { ($0.element.medianMs, -$0.offset) > ($1.element.medianMs, -$1.offset) }
                    .prefix(slowestOpsShown).map(\.element)
                let opRows = ops.map { op in
                    template.render("op-row.html", ["name": escape(op.name + (op.xnnpack ? "" : " (TFLite)")), "node": String(op.node),
                                                    "ms": time(op.medianMs).map { DecimalText.fixed($0, decimals: 4) } ?? "-"])
                }
                return template.render("slowest-ops.html", ["swatch": swatch(entry.index), "letter": letters[entry.index], "count": String(slowestOpsShown),
                                                            "threads": threadsText(threads), "rows": PageTemplate.lineByLine(opRows)])
            }
            sections.append(template.render("profile.html", ["threads": threadsText(threads), "thread-count": String(threads), "headers": headers,
                                                             "rows": PageTemplate.lineByLine(rows), "cut": cut, "slowest": PageTemplate.lineByLine(slowest)]))
        }
        return PageTemplate.lineByLine(sections)
    }
}
