import PlantLeafCore
import PlantLeafSupport
/// The three ways a benchmark is written out: the readable report, the JSON record (schema
/// below) and the CSV of every run.
///
/// JSON schema, version `schemaVersion` (docs/bench.md describes every field; version 2 named the
/// stages as every other output does: prepare, invoke, postprocess, end_to_end, decoder_alone;
/// version 3 added the quartiles, the op profile and what compare needs to judge fairness).
/// Times are milliseconds; text the machine does not provide is "unknown"; numbers it does not
/// provide are null.
public enum BenchReport {
    public static let schemaVersion = 3
    /// Bars in the invoke-latency histogram.
    static let histogramBins = 10
    static let histogramWidth = 40

    // MARK: - JSON

    /// The JSON record (schema above), one object and a newline.
    public static func json(_ result: BenchResult) -> String {
        var root = JSONObject()
        root.add("schema_version", schemaVersion)
        root.add("plantleaf_version", result.settings.softwareVersion)
        root.add("started_at", result.startedAt)

        var settings = JSONObject()
        settings.add("model", result.settings.classifier.modelPath)
        settings.add("labels", result.settings.classifier.labelsPath)
        settings.add("image", result.imageName)
        settings.add("runs", result.settings.runs)
        settings.add("warmup", result.settings.warmup)
        settings.add("threads", json: "[" + result.settings.threadCounts.map(String.init).joined(separator: ", ") + "]")
        settings.add("min_seconds", result.settings.minimumSeconds, decimals: 3)
        settings.add("settled_allocator", result.allocatorSettled)
        settings.add("profile", result.settings.profile)
        // null: not pinned, the scheduler was free to use every core.
        settings.add("cpus", json: result.settings.cpus.map { "[" + $0.cpus.map(String.init).joined(separator: ", ") + "]" } ?? "null")
        root.add("settings", settings)

        root.add("machine", machineJSON(result.machine, conditions: result.conditions))

        var model = JSONObject()
        model.add("path", result.settings.classifier.modelPath)
        model.add("sha256", result.modelSHA256)
        var input = JSONObject()
        input.add("name", result.input.name)
        input.add("type", result.input.elementType.description)
        input.add("shape", json: "[" + result.input.shape.map(String.init).joined(separator: ", ") + "]")
        model.add("input", input)
        root.add("model", model)

        var runtime = JSONObject()
        runtime.add("path", result.liteRtPath)
        runtime.add("sha256", result.liteRtSHA256)
        runtime.add("load_ms", result.libraryLoadMilliseconds, decimals: 3)
        root.add("runtime", runtime)

        if let timing = result.weightCache {
            var cache = JSONObject()
            cache.add("folder", timing.folder)
            cache.add("state", timing.state)
            cache.add("cold_compile_ms", timing.coldMilliseconds, decimals: 3)
            if let warm = timing.warmMilliseconds { cache.add("warm_compile_ms", warm, decimals: 3) } else { cache.addNull("warm_compile_ms") }
            root.add("weight_cache", cache)
        } else {
            root.addNull("weight_cache")
        }

        var image = JSONObject()
        image.add("source", result.imageName)
        image.add("sha256", result.imageSHA256)
        image.add("format", result.imageFormat)
        image.add("width", result.imageWidth)
        image.add("height", result.imageHeight)
        image.add("bytes", result.imageBytes)
        root.add("image", image)

        root.add("results", objects: result.runs.map(runJSON))
        let baseline = speedupBaseline(result.runs)
        if let baseline { root.add("speedup_baseline_threads", baseline.threads) } else { root.addNull("speedup_baseline_threads") }
        root.add("speedup", objects: speedups(result.runs).map { entry in
            var object = JSONObject()
            object.add("threads", entry.threads)
            object.add("invoke", entry.invoke, decimals: 3)
            object.add("end_to_end", entry.endToEnd, decimals: 3)
            return object
        })
        root.add("warnings", json: "[" + result.warnings.map(JSONObject.quote).joined(separator: ", ") + "]")
        return root.text + "\n"
    }

    private static func machineJSON(_ machine: MachineInfo, conditions: ConditionLog) -> JSONObject {
        var object = JSONObject()
        object.add("architecture", machine.architecture)
        object.add("cpu_model", machine.cpuModel)
        object.add("cpu_hardware", machine.cpuHardware)
        object.add("board", machine.board)
        object.add("host", machine.host)
        if let cores = machine.cores { object.add("cores", cores) } else { object.addNull("cores") }
        object.add("kernel", machine.kernel)
        addNumber(&object, "load_average_before", conditions.loadAverageBefore, decimals: 2)
        object.add("cpus_before", objects: conditions.frequenciesBefore.map(coreJSON))
        object.add("cpus_after", objects: conditions.frequenciesAfter.map(coreJSON))
        object.add("temperatures_before", objects: conditions.temperaturesBefore.map(thermalJSON))
        object.add("temperatures_after", objects: conditions.temperaturesAfter.map(thermalJSON))
        addNumber(&object, "peak_celsius", conditions.peakCelsius, decimals: 1)
        object.add("frequency_drops", objects: conditions.frequencyDrops.map { drop in
            var entry = JSONObject()
            entry.add("cpu", drop.cpu)
            entry.add("from_mhz", drop.fromMHz, decimals: 1)
            entry.add("to_mhz", drop.toMHz, decimals: 1)
            return entry
        })
        return object
    }

    private static func coreJSON(_ core: CoreFrequency) -> JSONObject {
        var object = JSONObject()
        object.add("cpu", core.cpu)
        object.add("governor", core.governor ?? MachineInfo.unknown)
        addNumber(&object, "current_mhz", core.currentMHz, decimals: 1)
        addNumber(&object, "max_mhz", core.maxMHz, decimals: 1)
        return object
    }

    private static func thermalJSON(_ reading: ThermalReading) -> JSONObject {
        var object = JSONObject()
        object.add("zone", reading.zone)
        object.add("type", reading.type)
        object.add("celsius", reading.celsius, decimals: 1)
        return object
    }

    private static func runJSON(_ run: ThreadRunResult) -> JSONObject {
        var object = JSONObject()
        object.add("threads", run.threads)
        object.add("load_compile_ms", run.loadCompileMilliseconds, decimals: 3)
        object.add("first_inference_ms", run.firstInferenceMilliseconds, decimals: 3)
        object.add("runs", run.runCount)
        object.add("measured_seconds", run.measuredSeconds, decimals: 3)
        object.add("images_per_second", run.imagesPerSecond, decimals: 2)
        object.add("peak_rss_kib", run.peakResidentKiB)
        if let profile = run.profile { object.add("profile", profileJSON(profile)) } else { object.addNull("profile") }
        if let top = run.topClass {
            var entry = JSONObject()
            entry.add("index", top.index)
            entry.add("label", top.label)
            entry.add("score", top.score, decimals: 4)
            object.add("top_class", entry)
        } else {
            object.addNull("top_class")
        }
        if let verdict = run.verdict { object.add("verdict", verdict.rawValue) } else { object.addNull("verdict") }
        var stages = JSONObject()
        for stage in BenchStage.allCases {
            guard let statistics = run.statistics[stage] else { stages.addNull(stage.rawValue); continue }
            var entry = JSONObject()
            entry.add("count", statistics.count)
            let quartiles = self.quartiles(run.samples[stage] ?? [])
            for (key, value) in [("min_ms", statistics.min), ("p25_ms", quartiles.lower), ("median_ms", statistics.median),
                                 ("p75_ms", quartiles.upper), ("mean_ms", statistics.mean),
                                 ("stddev_ms", statistics.standardDeviation), ("p90_ms", statistics.p90),
                                 ("p99_ms", statistics.p99), ("max_ms", statistics.max)] {
                entry.add(key, value, decimals: 3)
            }
            stages.add(stage.rawValue, entry)
        }
        object.add("stages", stages)
        return object
    }

    /// The 25th and 75th percentiles, interpolated as every other percentile is: the
    /// interquartile range `compare` shows as each median's spread.
    static func quartiles(_ samples: [Double]) -> (lower: Double, upper: Double) {
        guard !samples.isEmpty else { return (.nan, .nan) }
        let sorted = samples.sorted()
        return (LatencyStatistics.percentile(25, ofSorted: sorted), LatencyStatistics.percentile(75, ofSorted: sorted))
    }

    private static func profileJSON(_ profile: OpProfile) -> JSONObject {
        var object = JSONObject()
        object.add("runs", profile.runs)
        object.add("invoke_median_ms", profile.invokeMedianMilliseconds, decimals: 3)
        object.add("ops_total_ms", profile.totalMilliseconds, decimals: 3)
        object.add("fastest_invoke_ms", profile.fastestInvoke.milliseconds, decimals: 3)
        object.add("fastest_invoke_ops_ms", profile.fastestInvoke.opsMilliseconds, decimals: 3)
        object.add("ops", objects: profile.ops.map { op in
            var entry = JSONObject()
            entry.add("node", op.node)
            entry.add("xnnpack", op.delegated)
            entry.add("name", op.name)
            entry.add("median_ms", op.medianMilliseconds, decimals: 4)
            return entry
        })
        object.add("op_types", objects: profile.opTypes.map { type in
            var entry = JSONObject()
            entry.add("name", type.name)
            entry.add("count", type.count)
            entry.add("median_ms", type.medianMilliseconds, decimals: 4)
            return entry
        })
        return object
    }

    private static func addNumber(_ object: inout JSONObject, _ key: String, _ value: Double?, decimals: Int) {
        if let value { object.add(key, value, decimals: decimals) } else { object.addNull(key) }
    }

    // MARK: - Speed-up

    /// One thread when it was measured, else the first thread count given.
    static func speedupBaseline(_ runs: [ThreadRunResult]) -> ThreadRunResult? {
        runs.first { $0.threads == 1 } ?? runs.first
    }

    /// Baseline median over each thread count's median: above 1 is faster than the baseline.
    static func speedups(_ runs: [ThreadRunResult]) -> [(threads: Int, invoke: Double, endToEnd: Double)] {
        guard let baseline = speedupBaseline(runs) else { return [] }
        func ratio(_ stage: BenchStage, _ run: ThreadRunResult) -> Double {
            guard let base = baseline.statistics[stage]?.median, let this = run.statistics[stage]?.median, this > 0 else { return .nan }
            return base / this
        }
        return runs.map { ($0.threads, ratio(.invoke, $0), ratio(.endToEnd, $0)) }
    }

    // MARK: - CSV

    /// One row per measured run per stage: threads,run,stage,milliseconds (runs count from 1).
    public static func csv(_ result: BenchResult) -> String {
        var lines = ["threads,run,stage,milliseconds"]
        for run in result.runs {
            for index in 0..<run.runCount {
                for stage in BenchStage.allCases {
                    let value = run.samples[stage]?[index] ?? .nan
                    lines.append("\(run.threads),\(index + 1),\(stage.rawValue),\(BenchText.milliseconds(value))")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Text

    private static func weightCacheLine(_ timing: WeightCacheTiming?) -> String {
        guard let timing else { return "off (--no-cache)" }
        let cold = "load + compile \(BenchText.milliseconds(timing.coldMilliseconds)) ms without it"
        guard let warm = timing.warmMilliseconds else { return "\(timing.state); \(cold)" }
        return "\(cold), \(BenchText.milliseconds(warm)) ms reading it (first compile: \(timing.state), \(timing.folder))"
    }

    /// The readable report: the machine, the model and runtime, then each thread count's stage
    /// table and invoke histogram.
    public static func text(_ result: BenchResult) -> String {
        var lines = ["PlantLeaf \(result.settings.softwareVersion) benchmark, \(result.startedAt)", ""]
        lines += machineLines(result)
        lines.append("")
        let input = result.input
        lines += BenchText.table([
            ["model", "\(result.settings.classifier.modelPath) (\(input.elementType) \(input.shape), sha256 \(result.modelSHA256))"],
            ["runtime", "\(result.liteRtPath) (sha256 \(result.liteRtSHA256)), loaded in \(BenchText.milliseconds(result.libraryLoadMilliseconds)) ms"],
            ["cache", weightCacheLine(result.weightCache)],
            ["image", "\(result.imageName) (\(result.imageFormat), \(result.imageBytes) bytes, decoded at \(result.imageWidth)x\(result.imageHeight))"],
            ["runs", "\(result.settings.runs) measured after \(result.settings.warmup) warm-up"
                + (result.settings.minimumSeconds > 0 ? ", at least \(DecimalText.fixed(result.settings.minimumSeconds, decimals: 1)) s" : "")
                + ", threads \(result.settings.threadCounts.map(String.init).joined(separator: ","))"
                + (result.settings.cpus.map { ", on cpus \($0) (--cpus)" } ?? "")],
        ], leftAligned: 2)
        for run in result.runs {
            lines.append("")
            lines += runLines(run, synthetic: result.settings.imagePath == nil)
        }
        if result.runs.count > 1, let baseline = speedupBaseline(result.runs) {
            lines.append("")
            lines.append("Speed-up against \(baseline.threads) thread\(baseline.threads == 1 ? "" : "s") (medians)")
            var rows = [["threads", "invoke ms", "speed-up", "end to end ms", "speed-up", "images/s"]]
            for (run, speedup) in zip(result.runs, speedups(result.runs)) {
                rows.append([String(run.threads), BenchText.milliseconds(run.statistics[.invoke]?.median ?? .nan), BenchText.ratio(speedup.invoke),
                             BenchText.milliseconds(run.statistics[.endToEnd]?.median ?? .nan), BenchText.ratio(speedup.endToEnd),
                             DecimalText.fixed(run.imagesPerSecond, decimals: 1)])
            }
            lines += BenchText.table(rows)
        }
        let warnings = result.warnings
        if !warnings.isEmpty {
            lines.append("")
            lines.append("Warnings")
            lines += warnings.map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    private static func machineLines(_ result: BenchResult) -> [String] {
        let machine = result.machine, conditions = result.conditions
        let cores = machine.cores.map { "\($0) cores" } ?? "unknown core count"
        var rows = [["board", machine.board],
                    ["cpu", "\(machine.cpuModel) (\(cores), \(machine.architecture))"]]
        if machine.cpuHardware != MachineInfo.unknown { rows.append(["hardware", machine.cpuHardware]) }
        rows.append(["kernel", machine.kernel])
        rows.append(["load", conditions.loadAverageBefore.map { DecimalText.fixed($0, decimals: 2) + " (1-minute average, before the run)" } ?? "unknown"])
        let governors = Set(conditions.frequenciesBefore.compactMap(\.governor))
        rows.append(["governor", governors.isEmpty ? "unknown (no cpufreq in /sys)" : governors.sorted().joined(separator: ", ")])
        rows.append(["frequency", frequencySummary(before: conditions.frequenciesBefore, after: conditions.frequenciesAfter)])
        rows.append(["temperature", "\(hottest(conditions.temperaturesBefore)) before, \(hottest(conditions.temperaturesAfter)) after, "
            + "peak \(conditions.peakCelsius.map { DecimalText.fixed($0, decimals: 1) + " °C" } ?? "unknown")"])
        return ["Machine"] + BenchText.table(rows, leftAligned: 2)
    }

    /// "cpu0 1800/2400 MHz → 2400/2400 MHz, ..." (current/max before and after), or "unknown".
    private static func frequencySummary(before: [CoreFrequency], after: [CoreFrequency]) -> String {
        func mhz(_ value: Double?) -> String { value.map { String(Int($0.rounded())) } ?? "?" }
        let parts = before.compactMap { core -> String? in
            let later = after.first { $0.cpu == core.cpu }
            guard core.currentMHz != nil || later?.currentMHz != nil else { return nil }
            return "cpu\(core.cpu) \(mhz(core.currentMHz)) → \(mhz(later?.currentMHz)) MHz (max \(mhz(core.maxMHz)))"
        }
        return parts.isEmpty ? "unknown (no cpufreq in /sys)" : parts.joined(separator: ", ")
    }

    private static func hottest(_ readings: [ThermalReading]) -> String {
        guard let hottest = readings.max(by: { $0.celsius < $1.celsius }) else { return "unknown" }
        return "\(DecimalText.fixed(hottest.celsius, decimals: 1)) °C (\(hottest.type))"
    }

    /// One thread count's block. `synthetic`: the image is the built-in synthetic leaf, which no
    /// class describes, so the class the model picked for it is not shown as a result.
    private static func runLines(_ run: ThreadRunResult, synthetic: Bool) -> [String] {
        let peakMiB = DecimalText.fixed(Double(run.peakResidentKiB) / 1024, decimals: 1)
        var lines = ["Threads \(run.threads): load + compile \(BenchText.milliseconds(run.loadCompileMilliseconds)) ms, "
            + "first inference \(BenchText.milliseconds(run.firstInferenceMilliseconds)) ms, "
            + "\(DecimalText.fixed(run.imagesPerSecond, decimals: 1)) images/s, peak RSS \(peakMiB) MiB"]
        if synthetic {
            lines.append("  result: none: the picture is synthetic, so the class the model picks for it means nothing")
        } else if let top = run.topClass {
            let verdict = run.verdict.map { ", verdict \($0.rawValue)" } ?? ""
            lines.append("  result: \(Catalogue.english.className(top.label)) \(DecimalText.fixed(top.score * 100, decimals: 1))%\(verdict)")
        }
        var rows = [["stage (ms)", "count", "min", "median", "mean", "stddev", "p90", "p99", "max"]]
        for stage in BenchStage.allCases {
            guard let s = run.statistics[stage] else { continue }
            rows.append([stage.title, String(s.count)] + [s.min, s.median, s.mean, s.standardDeviation, s.p90, s.p99, s.max].map(BenchText.milliseconds))
        }
        lines += BenchText.table(rows)
        lines.append("")
        lines.append("  invoke latency, \(run.threads) thread\(run.threads == 1 ? "" : "s") (ms)")
        lines += histogram(run.samples[.invoke] ?? []).map { "  " + $0 }
        if let profile = run.profile {
            lines.append("")
            lines += profileLines(profile, unprofiledInvokeMedian: run.statistics[.invoke]?.median ?? .nan)
        }
        return lines
    }

    /// Ops shown in the text report; the JSON holds them all.
    static let slowestOpsShown = 10

    /// The slowest ops and the total per op type, each with its share of the ops' total.
    static func profileLines(_ profile: OpProfile, unprofiledInvokeMedian: Double) -> [String] {
        let total = profile.totalMilliseconds
        func share(_ milliseconds: Double) -> String { total > 0 ? DecimalText.fixed(milliseconds / total * 100, decimals: 1) + "%" : "-" }
        var lines = ["  op profile: \(profile.runs) invokes on a second interpreter compiled with the profiler; "
            + "its invoke median \(BenchText.milliseconds(profile.invokeMedianMilliseconds)) ms "
            + "(unprofiled \(BenchText.milliseconds(unprofiledInvokeMedian)) ms), its ops sum to \(BenchText.milliseconds(total)) ms"]
        var rows = [["slowest ops", "node", "ms/invoke", "share"]]
        for op in profile.slowestOps.prefix(slowestOpsShown) {
            rows.append([op.name + (op.delegated ? "" : " (TFLite)"), String(op.node), DecimalText.fixed(op.medianMilliseconds, decimals: 4), share(op.medianMilliseconds)])
        }
        lines += BenchText.table(rows, indent: "    ")
        lines.append("")
        rows = [["op type", "count", "ms/invoke", "share"]]
        for type in profile.opTypes {
            rows.append([type.name, String(type.count), DecimalText.fixed(type.medianMilliseconds, decimals: 4), share(type.medianMilliseconds)])
        }
        lines += BenchText.table(rows, indent: "    ")
        return lines
    }

    /// An ASCII histogram: equal-width bins from the minimum to the 99th percentile, so one slow
    /// outlier does not squash every bar into the first bin; slower samples share the last row.
    static func histogram(_ samples: [Double]) -> [String] {
        guard let statistics = LatencyStatistics(samples) else { return [] }
        let low = statistics.min, high = statistics.p99
        let width = (high - low) / Double(histogramBins)
        var rows: [(label: String, count: Int)] = []
        if width <= 0 {
            rows.append((BenchText.milliseconds(low), samples.count { $0 <= low }))
        } else {
            var counts = [Int](repeating: 0, count: histogramBins)
            for sample in samples where sample <= high {
                counts[min(Int((sample - low) / width), histogramBins - 1)] += 1
            }
            for (bin, count) in counts.enumerated() {
                let start = low + width * Double(bin)
                rows.append(("\(BenchText.milliseconds(start)) - \(BenchText.milliseconds(start + width))", count))
            }
        }
        let slower = samples.count { $0 > high }
        if slower > 0 { rows.append(("> \(BenchText.milliseconds(high)) (p99)", slower)) }
        let tallest = max(rows.map(\.count).max() ?? 1, 1)
        return BenchText.table(rows.map { row in
            let bar = String(repeating: "#", count: (row.count * histogramWidth + tallest - 1) / tallest)
            return [row.label, "|" + bar + String(repeating: " ", count: histogramWidth - bar.count), String(row.count)]
        }, leftAligned: 2)
    }
}
