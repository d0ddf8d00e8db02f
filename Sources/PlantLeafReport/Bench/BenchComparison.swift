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
    }

    /// The model measured: its path and sha256, so reports of different models are told apart.
    public struct Model: Decodable, Sendable {
        public var path: String
        public var sha256: String
    }

    /// One stage's median and 99th percentile in milliseconds (null when not measured).
    public struct Stage: Decodable, Sendable {
        public var medianMs: Double?
        public var p99Ms: Double?
    }

    /// One thread count's results: throughput and each stage by its `BenchStage` name.
    public struct Result: Decodable, Sendable {
        public var threads: Int
        public var imagesPerSecond: Double?
        public var stages: [String: Stage?]
    }

    public var schemaVersion: Int
    public var plantleafVersion: String
    public var machine: Machine
    public var model: Model
    public var results: [Result]

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

    /// Checks a report's bytes (the file `path` held): schema version, fields, plausible times.
    ///
    /// - Throws: `BenchError.reportSchema` for another schema version, `.reportInvalid` for
    ///   text that is not JSON, a missing or mistyped field, or an implausible time.
    public static func decode(_ bytes: [UInt8], path: String) throws(BenchError) -> StoredBenchReport {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        struct Version: Decodable { var schemaVersion: Int }
        do {
            let version = try decoder.decode(Version.self, from: Data(bytes)).schemaVersion
            guard version == BenchReport.schemaVersion else { throw BenchError.reportSchema(path: path, version: version) }
            let report = try decoder.decode(StoredBenchReport.self, from: Data(bytes))
            if let problem = report.implausibleValue() { throw BenchError.reportInvalid(path: path, reason: problem) }
            return report
        } catch let error as BenchError {
            throw error
        } catch let error as DecodingError {
            throw .reportInvalid(path: path, reason: reason(error, isJSON: (try? decoder.decode(AnyJSON.self, from: Data(bytes))) != nil))
        } catch {
            throw .reportInvalid(path: path, reason: "\(error)")
        }
    }

    /// Times a bench run cannot have measured: a median or p99 of zero or less, or of more than
    /// a day, and a throughput that is not above zero. The first found, as a reason.
    func implausibleValue() -> String? {
        for (index, result) in results.enumerated() {
            guard result.threads >= 1 else { return "field results[\(index)].threads is \(result.threads), not a thread count" }
            if let rate = result.imagesPerSecond, !(rate > 0 && rate.isFinite) {
                return "field results[\(index)].images_per_second is \(rate), not a rate above 0"
            }
            for (name, stage) in result.stages.sorted(by: { $0.key < $1.key }) {
                for (field, value) in [("median_ms", stage?.medianMs), ("p99_ms", stage?.p99Ms)] {
                    guard let value, !(value > 0 && value <= StoredBenchReport.longestTime) else { continue }
                    return "field results[\(index)].stages.\(name).\(field) is \(value), not a time above 0 and at most a day (86400000 ms)"
                }
            }
        }
        return nil
    }

    /// A day in milliseconds: no stage of one image takes longer.
    static let longestTime = 86_400_000.0

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

/// `plantleaf bench compare`: boards side by side, per thread count, per stage.
public enum BenchComparison {
    /// Median and p99 of every stage for each report, and each report's median over the first's
    /// (2.00x = twice as slow as the first file, 0.50x = twice as fast).
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
        for (letter, entry) in zip(letters, reports).dropFirst() where entry.report.model.sha256 != first.report.model.sha256 {
            lines.append("note: \(letter) measured a different model (\(entry.report.model.path), sha256 \(entry.report.model.sha256)) "
                + "than A (sha256 \(first.report.model.sha256)): the ratios compare different work")
        }
        var threadCounts: [Int] = []
        for entry in reports {
            for result in entry.report.results where !threadCounts.contains(result.threads) { threadCounts.append(result.threads) }
        }
        for threads in threadCounts {
            lines.append("")
            lines.append("Threads \(threads): median and p99 in ms, ratio = median / A's median")
            var header = ["stage"]
            for (index, letter) in letters.enumerated() {
                header += ["\(letter) median", "\(letter) p99"] + (index > 0 ? ["\(letter)/A"] : [])
            }
            var rows = [header]
            let results = reports.map { entry in entry.report.results.first { $0.threads == threads } }
            let stageNames = stageOrder(results.compactMap { $0 })
            for name in stageNames {
                let title = BenchStage(rawValue: name)?.title ?? name
                var row = [title]
                let base = results[0]?.stages[name]??.medianMs
                for (index, result) in results.enumerated() {
                    let stage = result?.stages[name] ?? nil
                    row += [stage?.medianMs.map(BenchText.milliseconds) ?? "-", stage?.p99Ms.map(BenchText.milliseconds) ?? "-"]
                    if index > 0 {
                        let ratio = base.flatMap { base in stage?.medianMs.map { base > 0 ? $0 / base : .nan } }
                        row.append(ratio.map(BenchText.ratio) ?? "-")
                    }
                }
                rows.append(row)
            }
            var throughput = ["images/s"]
            for (index, result) in results.enumerated() {
                throughput += [result?.imagesPerSecond.map { DecimalText.fixed($0, decimals: 1) } ?? "-", ""] + (index > 0 ? [""] : [])
            }
            rows.append(throughput)
            lines += BenchText.table(rows)
        }
        return lines.joined(separator: "\n")
    }

    /// The pipeline's stages in pipeline order, then any others the files hold, alphabetically.
    private static func stageOrder(_ results: [StoredBenchReport.Result]) -> [String] {
        let present = Set(results.flatMap(\.stages.keys))
        let known = BenchStage.allCases.map(\.rawValue).filter(present.contains)
        return known + present.subtracting(known).sorted()
    }
}
