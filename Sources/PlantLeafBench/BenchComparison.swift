import PlantLeafCore
import PlantLeafSupport

/// `plantleaf bench compare`: boards side by side, per thread count, per stage, and op by op.
public enum BenchComparison {
    /// What differs between the reports (image, model, runtime, threads, CPU pinning, version), each report's
    /// warnings, then per thread count the median, interquartile range and p99 of every stage
    /// with each report's median over the first's (2.00x = twice as slow as the first file,
    /// 0.50x = twice as fast), marked `~` where the two interquartile ranges overlap: a
    /// difference within the noise of the two runs. Then, where both have op profiles, the op
    /// types and the ops that changed most. The reports' text is shown with control and bidi
    /// characters escaped, never passed to the terminal.
    public static func render(_ reports: [(path: String, report: StoredBenchReport)]) -> String {
        guard let first = reports.first else { return "" }
        // A, B, C ... name the files in the column headings; past Z they are numbered.
        let letters = reports.indices.map { $0 < 26 ? String(UnicodeScalar(UInt8(65 + $0))) : "#\($0 + 1)" }
        var lines: [String] = []
        for (letter, entry) in zip(letters, reports) {
            let machine = entry.report.machine
            let cores = machine.cores.map { "\($0) cores" } ?? "unknown core count"
            lines.append("\(letter) = \(entry.path): \(machine.board), \(machine.cpuModel) (\(cores), \(machine.architecture)), "
                + "plantleaf \(entry.report.plantleafVersion)")
        }
        for (letter, entry) in zip(letters, reports).dropFirst() {
            lines += differences(entry.report, letter: letter, from: first.report)
        }
        for (letter, entry) in zip(letters, reports) {
            for warning in entry.report.warnings ?? [] { lines.append("warning: \(letter) measured under: \(warning)") }
        }
        let scope = ComparisonScope(reports.map(\.report))
        lines += scope.cuts
        for threads in scope.threadCounts {
            let results = reports.indices.map { scope.result($0, threads: threads) }
            lines.append("")
            lines += stageTable(threads: threads, results: results, stageNames: scope.stageNames, letters: letters)
            lines += profileTables(threads: threads, results: results, letters: letters)
        }
        // The lines outside the tables quote the reports too (board, CPU, paths, warnings); the
        // tables' cells were neutralised before padding, and neutralising again changes nothing.
        return lines.map(TerminalText.neutralised).joined(separator: "\n")
    }

    /// One "note:" line for each way `report` measured other work or another setup than `first`.
    static func differences(_ report: StoredBenchReport, letter: String, from first: StoredBenchReport) -> [String] {
        var notes: [String] = []
        if report.model.sha256 != first.model.sha256 {
            notes.append("note: \(letter) measured a different model (\(report.model.path), sha256 \(report.model.sha256)) "
                + "than A (sha256 \(first.model.sha256)): the ratios compare different work")
        }
        if let image = report.image, let firstImage = first.image, image.sha256 != firstImage.sha256 {
            notes.append("note: \(letter) measured a different image (\(image.source)) than A (\(firstImage.source)): "
                + "prepare and decode compare different images")
        }
        if let runtime = report.runtime, let firstRuntime = first.runtime, runtime.sha256 != firstRuntime.sha256 {
            notes.append("note: \(letter) ran another libLiteRt.so (sha256 \(runtime.sha256)) than A (sha256 \(firstRuntime.sha256))")
        }
        if let threads = report.settings?.threads, let firstThreads = first.settings?.threads, threads != firstThreads {
            func list(_ counts: [Int]) -> String { counts.map(String.init).joined(separator: ",") }
            notes.append("note: \(letter) measured threads \(list(threads)), A threads \(list(firstThreads)): "
                + "only the thread counts both measured have ratios")
        }
        if let settings = report.settings, let firstSettings = first.settings, settings.cpus != firstSettings.cpus {
            func pinning(_ cpus: [Int]?) -> String { cpus.map { "on cpus \(CPUSet($0))" } ?? "unpinned" }
            notes.append("note: \(letter) ran \(pinning(settings.cpus)), A \(pinning(firstSettings.cpus)): "
                + "the cores measured may differ in kind (big.LITTLE) and in number")
        }
        if report.plantleafVersion != first.plantleafVersion {
            notes.append("note: \(letter) was measured by plantleaf \(report.plantleafVersion), A by \(first.plantleafVersion)")
        }
        return notes
    }

    private static func stageTable(threads: Int, results: [StoredBenchReport.Result?], stageNames: [String], letters: [String]) -> [String] {
        let lines = ["Threads \(threads): median, interquartile range (IQR) and p99 in ms; ratio = median / A's median, "
            + "~ where the two IQRs overlap (within the runs' noise)"]
        var header = ["stage"]
        for (index, letter) in letters.enumerated() {
            header += ["\(letter) median", "\(letter) IQR", "\(letter) p99"] + (index > 0 ? ["\(letter)/A"] : [])
        }
        var rows = [header]
        let measured = results.compactMap { $0 }
        for name in stageNames where measured.contains(where: { $0.stages[name] != nil }) {
            let title = BenchStage(rawValue: name)?.title ?? name
            var row = [title]
            let base = results[0]?.stages[name] ?? nil
            for (index, result) in results.enumerated() {
                let stage = result?.stages[name] ?? nil
                row += [stage?.medianMs.map(BenchText.reportedMilliseconds) ?? "-", stage.flatMap(interquartileRange) ?? "-",
                        stage?.p99Ms.map(BenchText.reportedMilliseconds) ?? "-"]
                if index > 0 { row.append(ratio(stage, over: base)) }
            }
            rows.append(row)
        }
        var throughput = ["images/s"]
        for (index, result) in results.enumerated() {
            throughput += [result?.imagesPerSecond.map { DecimalText.fixed($0, decimals: 1) } ?? "-", "", ""] + (index > 0 ? [""] : [])
        }
        rows.append(throughput)
        return lines + BenchText.table(rows)
    }

    /// "0.120-0.150" (p25 to p75), or nil when the report has no quartiles.
    private static func interquartileRange(_ stage: StoredBenchReport.Stage) -> String? {
        guard let low = stage.p25Ms, let high = stage.p75Ms else { return nil }
        return BenchText.reportedMilliseconds(low) + "-" + BenchText.reportedMilliseconds(high)
    }

    /// "1.25x", "1.02x~" when the interquartile ranges overlap, "-" when either median is missing.
    static func ratio(_ stage: StoredBenchReport.Stage?, over base: StoredBenchReport.Stage?) -> String {
        guard let median = stage?.medianMs, let baseMedian = base?.medianMs, baseMedian > 0 else { return "-" }
        return BenchText.ratio(median / baseMedian) + (withinNoise(stage, base) ? "~" : "")
    }

    /// The two interquartile ranges overlap: half of each run's samples lie in a span the other's
    /// middle half reaches, so the medians' difference is no larger than the runs' own scatter.
    static func withinNoise(_ a: StoredBenchReport.Stage?, _ b: StoredBenchReport.Stage?) -> Bool {
        guard let aLow = a?.p25Ms, let aHigh = a?.p75Ms, let bLow = b?.p25Ms, let bHigh = b?.p75Ms else { return false }
        return aLow <= bHigh && bLow <= aHigh
    }

    /// Ops shown per report in the comparison: the ones whose time grew most.
    static let changedOpsShown = 10

    /// For each report with a profile beside A's: the op types side by side, and the ops whose
    /// time per invoke grew most against A's same op (same node in the same graph, same kernel).
    private static func profileTables(threads: Int, results: [StoredBenchReport.Result?], letters: [String]) -> [String] {
        guard let baseProfile = results[0]?.profile else { return [] }
        var lines: [String] = []
        for (index, result) in results.enumerated().dropFirst() {
            guard let profile = result?.profile else { continue }
            let letter = letters[index]
            lines.append("")
            lines.append("Threads \(threads), op types: ms per invoke, \(letter) against A")
            var rows = [["op type", "A count", "A ms", "\(letter) count", "\(letter) ms", "\(letter)/A", "\(letter)-A ms"]]
            let (names, total) = ComparisonScope.opTypeNames([baseProfile, profile])
            let baseTypes = Dictionary(baseProfile.opTypes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            let types = Dictionary(profile.opTypes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for name in names {
                let a = baseTypes[name], b = types[name]
                rows.append([name, a.map { String($0.count) } ?? "-", a.map { opTime($0.medianMs) } ?? "-",
                             b.map { String($0.count) } ?? "-", b.map { opTime($0.medianMs) } ?? "-",
                             opRatio(b?.medianMs, a?.medianMs), opDifference(b?.medianMs, a?.medianMs)])
            }
            lines += BenchText.table(rows)
            if let cut = ComparisonScope.opTypeCut(shown: names.count, total: total) { lines.append("  " + cut) }

            struct Key: Hashable { var node: Int, xnnpack: Bool, name: String }
            let baseOps = Dictionary(baseProfile.ops.map { (Key(node: $0.node, xnnpack: $0.xnnpack, name: $0.name), $0.medianMs) },
                                     uniquingKeysWith: +)
            let matched = profile.ops.compactMap { op -> (op: StoredBenchReport.Profile.Op, base: Double)? in
                baseOps[Key(node: op.node, xnnpack: op.xnnpack, name: op.name)].map { (op, $0) }
            }
            let grown = matched.sorted { $0.op.medianMs - $0.base > $1.op.medianMs - $1.base }.prefix(changedOpsShown)
            lines.append("")
            lines.append("Threads \(threads), the ops that grew most on \(letter) (\(matched.count) of \(profile.ops.count) ops matched A's by node and kernel)")
            rows = [["op", "node", "A ms", "\(letter) ms", "\(letter)/A", "\(letter)-A ms"]]
            for entry in grown {
                rows.append([entry.op.name + (entry.op.xnnpack ? "" : " (TFLite)"), String(entry.op.node), opTime(entry.base),
                             opTime(entry.op.medianMs), opRatio(entry.op.medianMs, entry.base), opDifference(entry.op.medianMs, entry.base)])
            }
            lines += BenchText.table(rows)
        }
        return lines
    }

    private static func opTime(_ milliseconds: Double) -> String { DecimalText.fixed(milliseconds, decimals: 4) }

    private static func opRatio(_ value: Double?, _ base: Double?) -> String {
        guard let value, let base, base > 0 else { return "-" }
        return BenchText.ratio(value / base)
    }

    private static func opDifference(_ value: Double?, _ base: Double?) -> String {
        guard let value, let base else { return "-" }
        return (value >= base ? "+" : "") + opTime(value - base)
    }

}
