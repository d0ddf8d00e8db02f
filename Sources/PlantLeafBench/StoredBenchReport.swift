import PlantLeafCore
import PlantLeafSupport

/// The part of a `plantleaf bench --json` report that `plantleaf bench compare` reads, read with
/// the core's strict JSON reader (UTF-8 only, no key twice in one object) and each field by the
/// name the file spells it with, so that every refusal names the field as the reader sees it.
public struct StoredBenchReport: Sendable {
    /// The machine the report was measured on, as its `machine` object says.
    public struct Machine: Sendable {
        public var architecture: String
        public var cpuModel: String
        public var board: String
        public var cores: Int?
        /// The machine's host name; absent from reports written before it was recorded.
        public var host: String?

        init(_ fields: ReportObject) throws(ReportFieldError) {
            architecture = try fields.required("architecture", ReportObject.string)
            cpuModel = try fields.required("cpu_model", ReportObject.string)
            board = try fields.required("board", ReportObject.string)
            cores = try fields.optional("cores", ReportObject.int)
            host = try fields.optional("host", ReportObject.string)
        }
    }

    /// The model measured: its path and sha256, so reports of different models are told apart.
    public struct Model: Sendable {
        public var path: String
        public var sha256: String

        init(_ fields: ReportObject) throws(ReportFieldError) {
            path = try fields.required("path", ReportObject.string)
            sha256 = try fields.required("sha256", ReportObject.string)
        }
    }

    /// One stage's median, quartiles and 99th percentile in milliseconds (null when not measured);
    /// the fastest and slowest run, for `--html`'s whiskers.
    public struct Stage: Sendable {
        public var minMs: Double?
        public var maxMs: Double?
        public var p25Ms: Double?
        public var medianMs: Double?
        public var p75Ms: Double?
        public var p99Ms: Double?

        init(_ fields: ReportObject) throws(ReportFieldError) {
            minMs = try fields.optional("min_ms", ReportObject.number)
            maxMs = try fields.optional("max_ms", ReportObject.number)
            p25Ms = try fields.optional("p25_ms", ReportObject.number)
            medianMs = try fields.optional("median_ms", ReportObject.number)
            p75Ms = try fields.optional("p75_ms", ReportObject.number)
            p99Ms = try fields.optional("p99_ms", ReportObject.number)
        }
    }

    /// An op profile (`--profile`): every op and the totals per op type, per invoke.
    public struct Profile: Sendable {
        public struct Op: Sendable {
            public var node: Int
            public var xnnpack: Bool
            public var name: String
            public var medianMs: Double

            init(_ fields: ReportObject) throws(ReportFieldError) {
                node = try fields.required("node", ReportObject.int)
                xnnpack = try fields.required("xnnpack", ReportObject.bool)
                name = try fields.required("name", ReportObject.string)
                medianMs = try fields.required("median_ms", ReportObject.number)
            }
        }
        public struct OpType: Sendable {
            public var name: String
            public var count: Int
            public var medianMs: Double

            init(_ fields: ReportObject) throws(ReportFieldError) {
                name = try fields.required("name", ReportObject.string)
                count = try fields.required("count", ReportObject.int)
                medianMs = try fields.required("median_ms", ReportObject.number)
            }
        }
        public var ops: [Op]
        public var opTypes: [OpType]

        init(_ fields: ReportObject) throws(ReportFieldError) {
            ops = try fields.required("ops", ReportObject.array(ReportObject.object(Op.init)))
            opTypes = try fields.required("op_types", ReportObject.array(ReportObject.object(OpType.init)))
        }
    }

    /// One thread count's results: throughput, each stage by its `BenchStage` name, the profile.
    public struct Result: Sendable {
        public var threads: Int
        public var imagesPerSecond: Double?
        public var stages: [String: Stage?]
        public var profile: Profile?

        init(_ fields: ReportObject) throws(ReportFieldError) {
            threads = try fields.required("threads", ReportObject.int)
            imagesPerSecond = try fields.optional("images_per_second", ReportObject.number)
            stages = try fields.required("stages", ReportObject.members(ReportObject.nullable(ReportObject.object(Stage.init))))
            profile = try fields.optional("profile", ReportObject.object(Profile.init))
        }
    }

    /// What was measured: the thread counts asked for, and the CPUs pinned to (`--cpus`; absent
    /// or null when the scheduler was free to use every core).
    public struct Settings: Sendable {
        public var threads: [Int]
        public var cpus: [Int]?

        init(_ fields: ReportObject) throws(ReportFieldError) {
            threads = try fields.required("threads", ReportObject.array(ReportObject.int))
            cpus = try fields.optional("cpus", ReportObject.array(ReportObject.int))
        }
    }

    /// The image measured, told apart by its bytes' sha256.
    public struct Image: Sendable {
        public var source: String
        public var sha256: String?

        init(_ fields: ReportObject) throws(ReportFieldError) {
            source = try fields.required("source", ReportObject.string)
            sha256 = try fields.optional("sha256", ReportObject.string)
        }
    }

    /// The runtime library measured.
    public struct Runtime: Sendable {
        public var path: String
        public var sha256: String

        init(_ fields: ReportObject) throws(ReportFieldError) {
            path = try fields.required("path", ReportObject.string)
            sha256 = try fields.required("sha256", ReportObject.string)
        }
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

    /// Members the reader does not know are passed over, as a newer writer may add some.
    init(_ fields: ReportObject) throws(ReportFieldError) {
        schemaVersion = try fields.required("schema_version", ReportObject.int)
        plantleafVersion = try fields.required("plantleaf_version", ReportObject.string)
        machine = try fields.required("machine", ReportObject.object(Machine.init))
        model = try fields.required("model", ReportObject.object(Model.init))
        results = try fields.required("results", ReportObject.array(ReportObject.object(Result.init)))
        settings = try fields.optional("settings", ReportObject.object(Settings.init))
        image = try fields.optional("image", ReportObject.object(Image.init))
        runtime = try fields.optional("runtime", ReportObject.object(Runtime.init))
        warnings = try fields.optional("warnings", ReportObject.array(ReportObject.string))
    }

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

    /// Checks a report's bytes (the file `path` held): JSON in UTF-8 with no key twice in one
    /// object, schema version, fields, plausible values.
    ///
    /// - Throws: `BenchError.reportSchema` for another schema version, `.reportInvalid` for
    ///   text that is not JSON or not UTF-8, a repeated key, a missing or mistyped field, or an
    ///   implausible value (see `implausibleValue()`).
    public static func decode(_ bytes: [UInt8], path: String) throws(BenchError) -> StoredBenchReport {
        // The reasons quote the report's own keys and values: shown, never obeyed by the terminal.
        func invalid(_ reason: String) -> BenchError { .reportInvalid(path: path, reason: TerminalText.neutralised(reason)) }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            switch error.problem {
            case .repeatedKey: throw invalid("field \(error.location) appears twice in one object")
            // UTF-16 and UTF-32 hold NUL bytes in their ASCII characters; UTF-8 JSON holds none.
            case .unexpectedByte(0) where bytes.contains(0), .invalidUTF8: throw invalid("not UTF-8 text (plantleaf bench writes UTF-8)")
            default: throw invalid(error.message)
            }
        }
        do {
            let fields = try ReportObject(value, location: "")
            // The version first: a newer report's fields may differ from what this reader knows.
            let version = try fields.required("schema_version", ReportObject.int)
            guard version == BenchReport.schemaVersion else { throw BenchError.reportSchema(path: path, version: version) }
            let report = try StoredBenchReport(fields)
            if let problem = report.implausibleValue() { throw invalid(problem) }
            return report
        } catch let error as ReportFieldError {
            throw invalid(error.reason)
        } catch let error as BenchError {
            throw error
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
}
