import PlantLeafCore
import FoundationEssentials

/// The part of a `plantleaf bench --json` report that `plantleaf bench compare` reads.
public struct StoredBenchReport: Decodable, Sendable {
    /// The machine the report was measured on, as its `machine` object says.
    public struct Machine: Decodable, Sendable {
        public var architecture: String
        public var cpuModel: String
        public var board: String
        public var cores: Int?
        /// The machine's host name; absent from reports written before it was recorded.
        public var host: String?
    }

    /// The model measured: its path and sha256, so reports of different models are told apart.
    public struct Model: Decodable, Sendable {
        public var path: String
        public var sha256: String
    }

    /// One stage's median, quartiles and 99th percentile in milliseconds (null when not measured);
    /// the fastest and slowest run, for `--html`'s whiskers.
    public struct Stage: Decodable, Sendable {
        public var minMs: Double?
        public var maxMs: Double?
        public var p25Ms: Double?
        public var medianMs: Double?
        public var p75Ms: Double?
        public var p99Ms: Double?
    }

    /// An op profile (`--profile`): every op and the totals per op type, per invoke.
    public struct Profile: Decodable, Sendable {
        public struct Op: Decodable, Sendable {
            public var node: Int
            public var xnnpack: Bool
            public var name: String
            public var medianMs: Double
        }
        public struct OpType: Decodable, Sendable {
            public var name: String
            public var count: Int
            public var medianMs: Double
        }
        public var ops: [Op]
        public var opTypes: [OpType]
    }

    /// One thread count's results: throughput, each stage by its `BenchStage` name, the profile.
    public struct Result: Decodable, Sendable {
        public var threads: Int
        public var imagesPerSecond: Double?
        public var stages: [String: Stage?]
        public var profile: Profile?
    }

    /// What was measured: the thread counts asked for, and the CPUs pinned to (`--cpus`; absent
    /// or null when the scheduler was free to use every core).
    public struct Settings: Decodable, Sendable {
        public var threads: [Int]
        public var cpus: [Int]?
    }

    /// The image measured, told apart by its bytes' sha256.
    public struct Image: Decodable, Sendable {
        public var source: String
        public var sha256: String?
    }

    /// The runtime library measured.
    public struct Runtime: Decodable, Sendable {
        public var path: String
        public var sha256: String
    }

    public var schemaVersion: Int
    public var plantleafVersion: String
    public var machine: Machine
    public var model: Model
    public var results: [Result]
    // Optional, so a report cut down to what the tables need (a hand-made one) still compares.
    public var settings: Settings?
    public var image: Image?
    public var runtime: Runtime?
    public var warnings: [String]?

    /// Reads and checks a report file; every failure names the file and what is wrong with it.
    ///
    /// - Throws: `BenchError.reportUnreadable` when the file cannot be read, and what
    ///   `decode(_:path:)` throws.
    public static func load(path: String) throws(BenchError) -> StoredBenchReport {
        let bytes: [UInt8]
        do {
            bytes = try FileReader.readAll(path: path)
        } catch {
            throw .reportUnreadable(path: path, reason: error.reason)
        }
        return try decode(bytes, path: path)
    }

    /// Checks a report's bytes (the file `path` held): schema version, UTF-8, no key twice in
    /// one object, fields, plausible values.
    ///
    /// - Throws: `BenchError.reportSchema` for another schema version, `.reportInvalid` for
    ///   text that is not JSON or not UTF-8, a repeated key, a missing or mistyped field, or an
    ///   implausible value (see `implausibleValue()`).
    public static func decode(_ bytes: [UInt8], path: String) throws(BenchError) -> StoredBenchReport {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        struct Version: Decodable { var schemaVersion: Int }
        // The reasons quote the report's own keys and values: shown, never obeyed by the terminal.
        func invalid(_ reason: String) -> BenchError { .reportInvalid(path: path, reason: TerminalText.neutralised(reason)) }
        do {
            let version = try decoder.decode(Version.self, from: Data(bytes)).schemaVersion
            guard version == BenchReport.schemaVersion else { throw BenchError.reportSchema(path: path, version: version) }
            // JSONDecoder also reads UTF-16 and UTF-32, whose ASCII characters hold NUL bytes; UTF-8
            // JSON never does, and the duplicate-key scan reads UTF-8.
            guard !bytes.contains(0) else { throw invalid("not UTF-8 text (plantleaf bench writes UTF-8)") }
            if let key = JSONDuplicateKeys.first(in: bytes) { throw invalid("field \(key) appears twice in one object") }
            let report = try decoder.decode(StoredBenchReport.self, from: Data(bytes))
            if let problem = report.implausibleValue() { throw invalid(problem) }
            return report
        } catch let error as BenchError {
            throw error
        } catch let error as DecodingError {
            throw invalid(reason(error, isJSON: (try? decoder.decode(AnyJSON.self, from: Data(bytes))) != nil))
        } catch {
            throw invalid("\(error)")
        }
    }

    /// The most cores a Linux kernel can be built for (CONFIG_NR_CPUS): a report claiming more
    /// (or fewer than one) did not count them.
    static let mostCores = 8192

    /// What a bench run cannot have recorded: a core count outside 1 to `mostCores`, no results,
    /// a thread count below 1 or measured twice, a throughput that is not above zero, a median or
    /// p99 below `shortestTime` or above a day. The first found, as a reason.
    func implausibleValue() -> String? {
        if let cores = machine.cores, !(1...StoredBenchReport.mostCores).contains(cores) {
            return "field machine.cores is \(cores), not a core count from 1 to \(StoredBenchReport.mostCores)"
        }
        guard !results.isEmpty else { return "field results is empty: the report has nothing to compare" }
        // Each thread count's first result, by its count: one look-up per result, however many.
        var resultIndexByThreads: [Int: Int] = [:]
        for (index, result) in results.enumerated() {
            guard result.threads >= 1 else { return "field results[\(index)].threads is \(result.threads), not a thread count" }
            if let earlier = resultIndexByThreads.updateValue(index, forKey: result.threads) {
                return "field results[\(index)].threads is \(result.threads), as in results[\(earlier)]: "
                    + "one thread count measured twice, and compare would show only one of them"
            }
            if let rate = result.imagesPerSecond, !(rate > 0 && rate.isFinite) {
                return "field results[\(index)].images_per_second is \(rate), not a rate above 0"
            }
            for (name, stage) in result.stages.sorted(by: { $0.key < $1.key }) {
                for (field, value) in [("median_ms", stage?.medianMs), ("p99_ms", stage?.p99Ms)] {
                    guard let value, !(value >= StoredBenchReport.shortestTime && value <= StoredBenchReport.longestTime) else { continue }
                    return "field results[\(index)].stages.\(name).\(field) is \(value), not a time from 0.0001 ms "
                        + "(100 ns, the least a timed stage takes) to a day (86400000 ms)"
                }
            }
        }
        return nil
    }

    /// A day in milliseconds: no stage of one image takes longer.
    static let longestTime = 86_400_000.0

    /// 100 ns in milliseconds: two clock readings alone take about that long, so a stage timed
    /// shorter was not measured. The floor also keeps every ratio of two times finite (at most
    /// `longestTime / shortestTime`), so the charts' axes stay finite.
    static let shortestTime = 0.0001

    /// One line on what the decoder found wrong, naming the field by its JSON path, as the
    /// file spells it (snake_case, not the Swift property). `isJSON`: the text itself parses,
    /// so a "corrupted" value is one of the wrong kind, not broken JSON.
    private static func reason(_ error: DecodingError, isJSON: Bool) -> String {
        func snakeCase(_ key: String) -> String {
            var text = ""
            for character in key {
                if character.isUppercase { text += "_" + character.lowercased() } else { text.append(character) }
            }
            return text
        }
        func field(_ path: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            let keys = (path + (last.map { [$0] } ?? [])).map { $0.intValue.map { "[\($0)]" } ?? snakeCase($0.stringValue) }
            return keys.isEmpty ? "the top level" : keys.joined(separator: ".").replacing(".[", with: "[")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field \(field(context.codingPath, key))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "field \(field(context.codingPath)) has the wrong type"
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            return "field \(field(context.codingPath)) is malformed"
        case .dataCorrupted:
            // JSONDecoder names no field when a number does not fit an Int ("threads": 1.5).
            return isJSON ? "valid JSON, but a number does not fit its field (a fraction or too large where a whole number belongs)"
                          : "not valid JSON"
        @unknown default:
            return "unreadable JSON"
        }
    }
}

/// Any JSON value, kept as nothing: decoding one tells whether text is JSON at all.
private struct AnyJSON: Decodable {
    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            while !array.isAtEnd { _ = try array.decode(AnyJSON.self) }
        } else if let object = try? decoder.container(keyedBy: AnyKey.self) {
            for key in object.allKeys { _ = try object.decode(AnyJSON.self, forKey: key) }
        } else {
            let value = try decoder.singleValueContainer()
            if !value.decodeNil(), (try? value.decode(Bool.self)) == nil, (try? value.decode(Double.self)) == nil {
                _ = try value.decode(String.self)
            }
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

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
