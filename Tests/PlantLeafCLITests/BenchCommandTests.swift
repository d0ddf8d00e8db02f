import Foundation
import PlantLeafCommandLine
import PlantLeafCore
import PlantLeafCamera
import PlantLeafBench
import PlantLeafTestSupport
import Testing

/// `plantleaf bench` end to end: a real short run of the built binary, its JSON and CSV, compare
/// on reports the test writes, and the usage errors.
@Suite struct BenchCommandTests {
    static let stages = ["prepare", "invoke", "postprocess", "generalist", "end_to_end", "decoder_alone"]

    @Test func shortRunWritesTheDocumentedSchema() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let jsonPath = folder + "/bench.json", csvPath = folder + "/bench.csv"
        let result = try runPlantLeaf(["bench", "--runs", "5", "--warmup", "1", "--threads", "1,2",
                                       "--json", jsonPath, "--csv", csvPath])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("Threads 1: load + compile"))
        #expect(result.stdout.contains("invoke latency, 2 threads (ms)"))
        #expect(result.stdout.contains("Speed-up against 1 thread (medians)"))

        let json = try #require(jsonObject(try String(contentsOfFile: jsonPath, encoding: .utf8)))
        #expect(json["schema_version"] as? Int == 3)
        #expect(json["plantleaf_version"] as? String == ProjectPaths.version)
        #expect(json["started_at"] is String)

        let settings = try #require(json["settings"] as? [String: Any])
        #expect(settings["runs"] as? Int == 5)
        #expect(settings["warmup"] as? Int == 1)
        #expect(settings["threads"] as? [Int] == [1, 2])
        #expect(settings["min_seconds"] as? Double == 0)
        // mallopt has no effect under AddressSanitizer's allocator, and the report says so.
        #expect(settings["settled_allocator"] as? Bool == !TestPaths.binaryHasSanitizer)
        for key in ["model", "labels", "image"] { #expect(settings[key] is String, "settings.\(key)") }

        let machine = try #require(json["machine"] as? [String: Any])
        for key in ["architecture", "cpu_model", "cpu_hardware", "board", "kernel"] { #expect(machine[key] is String, "machine.\(key)") }
        #expect(machine["cores"] is Int || machine["cores"] is NSNull)
        for key in ["cpus_before", "cpus_after", "temperatures_before", "temperatures_after", "frequency_drops"] {
            #expect(machine[key] is [Any], "machine.\(key)")
        }
        for key in ["peak_celsius", "load_average_before"] { #expect(machine[key] is NSNumber || machine[key] is NSNull, "machine.\(key)") }
        let cpus = try #require(machine["cpus_before"] as? [[String: Any]])
        for cpu in cpus {
            #expect(cpu["cpu"] is Int && cpu["governor"] is String)
            #expect(cpu["current_mhz"] is NSNumber || cpu["current_mhz"] is NSNull)
            #expect(cpu["max_mhz"] is NSNumber || cpu["max_mhz"] is NSNull)
        }

        let model = try #require(json["model"] as? [String: Any])
        let modelHash = try #require(model["sha256"] as? String)
        #expect(modelHash.count == 64 && modelHash.allSatisfy(\.isHexDigit))
        let input = try #require(model["input"] as? [String: Any])
        #expect(input["type"] as? String == "int8")
        #expect(input["shape"] as? [Int] == [1, 224, 224, 3])
        let runtime = try #require(json["runtime"] as? [String: Any])
        #expect((runtime["sha256"] as? String)?.count == 64)
        #expect(runtime["path"] is String && runtime["load_ms"] is NSNumber)
        let image = try #require(json["image"] as? [String: Any])
        #expect(image["format"] as? String == "JPEG")
        // 7/8 would give the model's 224x224, but only 1/8, 1/4, 1/2 and 1/1 run at SIMD speed.
        #expect(image["width"] as? Int == 256 && image["height"] as? Int == 256)
        #expect((image["bytes"] as? Int ?? 0) > 0)

        let results = try #require(json["results"] as? [[String: Any]])
        #expect(results.map { $0["threads"] as? Int } == [1, 2])
        for run in results {
            #expect(run["runs"] as? Int == 5)
            for key in ["load_compile_ms", "first_inference_ms", "measured_seconds", "images_per_second"] {
                #expect((run[key] as? Double ?? 0) > 0, "results.\(key)")
            }
            #expect((run["peak_rss_kib"] as? Int ?? 0) > 1024)
            let top = try #require(run["top_class"] as? [String: Any])
            #expect(top["index"] is Int && top["label"] is String && top["score"] is NSNumber)
            let stages = try #require(run["stages"] as? [String: [String: Any]])
            #expect(Set(stages.keys) == Set(Self.stages))
            for (name, stage) in stages {
                #expect(stage["count"] as? Int == 5, "\(name).count")
                let values = try ["min_ms", "median_ms", "mean_ms", "p90_ms", "p99_ms", "max_ms"].map { key in
                    try #require(stage[key] as? Double, "\(name).\(key)")
                }
                #expect(values[0] <= values[1] && values[1] <= values[3] && values[3] <= values[4] && values[4] <= values[5], "\(name) order")
                #expect((stage["stddev_ms"] as? Double ?? -1) >= 0)
            }
        }
        #expect(json["speedup_baseline_threads"] as? Int == 1)
        let speedup = try #require(json["speedup"] as? [[String: Any]])
        #expect(speedup.map { $0["threads"] as? Int } == [1, 2])
        #expect(speedup[0]["invoke"] as? Double == 1 && speedup[0]["end_to_end"] as? Double == 1)
        #expect(json["warnings"] is [String])

        // One row per run per stage, for both thread counts, after the header.
        let rows = try String(contentsOfFile: csvPath, encoding: .utf8).split(separator: "\n")
        #expect(rows.first == "threads,run,stage,milliseconds")
        #expect(rows.count == 1 + 2 * 5 * Self.stages.count)
        #expect(rows[1...Self.stages.count].map { $0.split(separator: ",")[2] } == Self.stages.map { Substring($0) })
        #expect(rows.last?.hasPrefix("2,5,decoder_alone,") == true)
    }

    /// The second process reads the cache the first wrote; the compile times are printed, not
    /// held to a bound (the machine's other work decides them).
    @Test func secondProcessReadsTheWeightCache() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = folder + "/cache"
        var states: [String] = []
        for process in 1...2 {
            let jsonPath = folder + "/bench\(process).json"
            let result = try runPlantLeaf(["bench", "--synthetic", "--runs", "1", "--warmup", "0", "--json", jsonPath], environment: environment)
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let json = try #require(jsonObject(try String(contentsOfFile: jsonPath, encoding: .utf8)))
            let cache = try #require(json["weight_cache"] as? [String: Any])
            #expect(cache["folder"] as? String == folder + "/cache/plantleaf")
            states.append(cache["state"] as? String ?? "none")
            let results = try #require(json["results"] as? [[String: Any]])
            print("weight cache, process \(process): \(states.last!), load + compile \(results.first?["load_compile_ms"] ?? "?") ms; "
                  + "without the cache \(cache["cold_compile_ms"] ?? "?") ms, reading it \(cache["warm_compile_ms"] ?? "?") ms")
        }
        #expect(states == ["built", "loaded"])
        let uncached = try runPlantLeaf(["bench", "--synthetic", "--runs", "1", "--warmup", "0", "--no-cache", "--json", folder + "/off.json"],
                                        environment: environment)
        #expect(uncached.status == 0, "stderr: \(uncached.stderr)")
        let off = try #require(jsonObject(try String(contentsOfFile: folder + "/off.json", encoding: .utf8)))
        #expect(off["weight_cache"] is NSNull)
    }

    @Test func syntheticImageNeedsNoFile() throws {
        let result = try runPlantLeaf(["bench", "--synthetic", "--runs", "2", "--warmup", "0"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("image    synthetic (JPEG, "))
        #expect(result.stdout.contains(" bytes, decoded at 256x256)"))
        // No class describes the synthetic leaf: the one picked for it is not shown as a result.
        #expect(result.stdout.contains("  result: none: the picture is synthetic, so the class the model picks for it means nothing"))
        #expect(!result.stdoutLines.contains { $0.hasPrefix("  result: ") && $0.contains("%") })
    }

    /// --cpus pins the measurement: the report records the CPUs, and more threads than CPUs is
    /// a warning; a CPU the process cannot use is refused before measuring.
    @Test func cpusPinTheMeasurementAndAreRecorded() throws {
        let allowed = try #require(CPUSet.allowed())
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let cpu = allowed.cpus[0]
        let result = try runPlantLeaf(["bench", "--synthetic", "--runs", "2", "--warmup", "0", "--threads", "1,2",
                                       "--cpus", String(cpu), "--json", folder + "/pinned.json"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains(", threads 1,2, on cpus \(cpu) (--cpus)"))
        #expect(result.stderrLines.contains("plantleaf bench: warning: 2 threads on the 1 CPU of --cpus \(cpu): the threads share cores, "
            + "so that result measures contention, not the board; measure with at most 1 threads or pin more CPUs"), "\(result.stderr)")
        let report = try #require(jsonObject(try String(contentsOfFile: folder + "/pinned.json", encoding: .utf8)))
        let settings = try #require(report["settings"] as? [String: Any])
        #expect(settings["cpus"] as? [Int] == [cpu])

        let absent = try #require((0..<1024).first { !allowed.cpus.contains($0) })
        let refused = try runPlantLeaf(["bench", "--synthetic", "--runs", "1", "--cpus", String(absent)])
        #expect(refused.status == 2)
        #expect(refused.stderr == "plantleaf bench: --cpus names CPU \(absent), which this process cannot run on (it may use \(allowed)): see lscpu\n")
    }

    /// --profile times each op on a second interpreter: the ops are the model's (XNNPACK's
    /// convolutions and fully connected layers), and their times add up to that interpreter's
    /// invoke within 20 %.
    @Test func profileListsTheModelsOpsAddingUpToInvoke() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let jsonPath = folder + "/profile.json"
        let result = try runPlantLeaf(["bench", "--synthetic", "--runs", "100", "--warmup", "5", "--profile", "--json", jsonPath])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("  op profile: 100 invokes on a second interpreter compiled with the profiler"))
        #expect(result.stdout.contains("    slowest ops "))
        #expect(result.stdout.contains("    op type "))

        let json = try #require(jsonObject(try String(contentsOfFile: jsonPath, encoding: .utf8)))
        #expect((json["settings"] as? [String: Any])?["profile"] as? Bool == true)
        let run = try #require((json["results"] as? [[String: Any]])?.first)
        let profile = try #require(run["profile"] as? [String: Any])
        #expect(profile["runs"] as? Int == 100)
        let ops = try #require(profile["ops"] as? [[String: Any]])
        let names = Set(ops.compactMap { $0["name"] as? String })
        #expect(names.contains { $0.hasPrefix("Convolution") }, "\(names)")
        #expect(names.contains { $0.hasPrefix("Fully Connected") }, "\(names)")
        #expect(names.contains("SOFTMAX"), "the one op XNNPACK leaves to TFLite: \(names)")
        let sum = ops.reduce(0.0) { $0 + ($1["median_ms"] as? Double ?? 0) }
        #expect(abs((profile["ops_total_ms"] as? Double ?? 0) - sum) < 0.01)
        // The fastest invoke against its own ops: the tests run beside each other on a few
        // cores, and an invoke the scheduler interrupted between ops would say nothing of the
        // profile; of 100, the fastest is one it left alone (the medians' agreement is shown in
        // docs/bench.md, measured on a quiet machine).
        let fastest = try #require(profile["fastest_invoke_ms"] as? Double)
        let fastestOps = try #require(profile["fastest_invoke_ops_ms"] as? Double)
        #expect(abs(fastestOps - fastest) <= 0.2 * fastest, "the fastest invoke took \(fastest) ms, its ops \(fastestOps) ms")
        let types = try #require(profile["op_types"] as? [[String: Any]])
        #expect(types.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == ops.count)
    }

    @Test func compareLinesUpBoards() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let pi = folder + "/pi5.json", laptop = folder + "/laptop.json"
        TestImages.write(Array(Self.report(board: "Raspberry Pi 5 Model B Rev 1.0", invokeMedian: 8, invokeP99: 9.5).utf8), to: pi)
        TestImages.write(Array(Self.report(board: "LENOVO 20KH", invokeMedian: 2, invokeP99: 2.5).utf8), to: laptop)
        let result = try runPlantLeaf(["bench", "compare", pi, laptop])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdoutLines
        #expect(lines[0] == "A = \(pi): Raspberry Pi 5 Model B Rev 1.0, 4x Cortex-A76 (4 cores, aarch64), plantleaf 0.1.0")
        #expect(lines[1].hasPrefix("B = \(laptop): LENOVO 20KH"))
        let invoke = try #require(lines.first { $0.hasPrefix("  invoke") })
        // No quartiles in these reports: no IQR, and no judgement of noise.
        #expect(invoke.split(separator: " ") == ["invoke", "8.000", "-", "9.500", "2.000", "-", "2.500", "0.25x"])
        let prepare = try #require(lines.first { $0.hasPrefix("  prepare") })
        #expect(prepare.split(separator: " ").last == "1.00x")
        #expect(lines.contains { $0.hasPrefix("  images/s") })
    }

    /// A ratio whose two interquartile ranges overlap is marked as within the noise; one whose
    /// ranges are apart is not.
    @Test func compareMarksRatiosWithinTheNoise() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let a = folder + "/a.json", close = folder + "/close.json", far = folder + "/far.json"
        TestImages.write(Array(Self.report(board: "a", invokeMedian: 8, invokeP99: 9, invokeQuartiles: (7.5, 8.5)).utf8), to: a)
        TestImages.write(Array(Self.report(board: "b", invokeMedian: 8.4, invokeP99: 9, invokeQuartiles: (8.2, 8.9)).utf8), to: close)
        TestImages.write(Array(Self.report(board: "c", invokeMedian: 4, invokeP99: 5, invokeQuartiles: (3.9, 4.2)).utf8), to: far)
        let result = try runPlantLeaf(["bench", "compare", a, close, far])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let invoke = try #require(result.stdoutLines.first { $0.hasPrefix("  invoke") })
        #expect(invoke.split(separator: " ") == ["invoke", "8.000", "7.500-8.500", "9.000", "8.400", "8.200-8.900", "9.000", "1.05x~",
                                                 "4.000", "3.900-4.200", "5.000", "0.50x"])
    }

    /// Two real reports, of the sample leaf on one thread and of the synthetic leaf on one and
    /// two: compare names both differences, and carries a report's load warning.
    @Test func compareNamesDifferencesAndCarriesWarnings() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let sample = folder + "/sample.json", synthetic = folder + "/synthetic.json"
        let first = try runPlantLeaf(["bench", "--image", TestPaths.appleScabLeaf, "--runs", "3", "--warmup", "0", "--json", sample])
        #expect(first.status == 0, "stderr: \(first.stderr)")
        let cpu = try #require(CPUSet.allowed()?.cpus.first)
        let second = try runPlantLeaf(["bench", "--synthetic", "--threads", "1,2", "--runs", "3", "--warmup", "0", "--cpus", String(cpu),
                                       "--json", synthetic])
        #expect(second.status == 0, "stderr: \(second.stderr)")
        // Whatever this machine's load was, B says it was measured under a load warning.
        let loadWarning = "load average was 3.50 before the run: other processes compete for the CPU"
        var json = try #require(jsonObject(try String(contentsOfFile: synthetic, encoding: .utf8)))
        json["warnings"] = [loadWarning]
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: synthetic))

        let result = try runPlantLeaf(["bench", "compare", sample, synthetic])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdoutLines
        #expect(lines.contains("note: B measured a different image (synthetic) than A (\(TestPaths.appleScabLeaf)): "
            + "prepare and decode compare different images"))
        #expect(lines.contains("note: B measured threads 1,2, A threads 1: only the thread counts both measured have ratios"))
        #expect(lines.contains("note: B ran on cpus \(cpu), A unpinned: the cores measured may differ in kind (big.LITTLE) and in number"))
        #expect(lines.contains("warning: B measured under: \(loadWarning)"))
        #expect(!lines.contains { $0.hasPrefix("note: B measured a different model") || $0.hasPrefix("note: B ran another") })
    }

    @Test func compareRefusesFilesThatAreNotReports() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let good = folder + "/good.json", partial = folder + "/partial.json", future = folder + "/future.json"
        TestImages.write(Array(Self.report(board: "x", invokeMedian: 1, invokeP99: 1).utf8), to: good)
        TestImages.write(Array(#"{"schema_version": 3, "plantleaf_version": "0.1.0"}"#.utf8), to: partial)
        TestImages.write(Array(#"{"schema_version": 4}"#.utf8), to: future)

        let missing = try runPlantLeaf(["bench", "compare", good, partial])
        #expect(missing.status == 2)
        #expect(missing.stderr == "plantleaf bench compare: \(partial) is not a plantleaf bench JSON report: missing field machine "
                + "(write one with plantleaf bench --json FILE)\n")
        let newer = try runPlantLeaf(["bench", "compare", good, future])
        #expect(newer.status == 2)
        #expect(newer.stderr.contains("\(future) has schema_version 4, this plantleaf reads 3"))
        let absent = try runPlantLeaf(["bench", "compare", good, folder + "/none.json"])
        #expect(absent.status == 2)
        #expect(absent.stderr.contains("cannot read benchmark report \(folder)/none.json: no such file or directory"))
        let one = try runPlantLeaf(["bench", "compare", good])
        #expect(one.status == 2)
        #expect(one.stderr.contains("compare needs at least two JSON reports"))
    }

    /// Changes to a good report (text replaced once) that make it one compare cannot line up
    /// honestly, and the reason it is refused for.
    static let unfairReports: [(replacing: String, with: String, reason: String)] = [
        (#""cores": 4"#, #""cores": -4"#, "field machine.cores is -4, not a core count from 1 to 8192"),
        (#""cores": 4"#, #""cores": 100000"#, "field machine.cores is 100000, not a core count from 1 to 8192"),
        // The decoder ignores keys it does not know: the old results become "unused".
        (#""results": ["#, #""results": [], "unused": ["#, "field results is empty: the report has nothing to compare"),
        (#""results": ["#, #""results": [{"threads": 1, "stages": {}}, "#,
         "field results[1].threads is 1, as in results[0]: one thread count measured twice, and compare would show only one of them"),
        (#""model": {"#, #""machine": {}, "model": {"#, "field machine appears twice in one object"),
        (#"{"threads": 1,"#, #"{"threads": 1, "threads": 2,"#, "field results[0].threads appears twice in one object"),
        (#""board": "#, #""bo\u0061rd": "x", "board": "#, "field machine.board appears twice in one object"),
    ]

    /// Refused as any other bad report is: exit 2, one line naming the file and what is wrong.
    @Test(arguments: unfairReports)
    func compareRefusesReportsItCannotLineUp(replacing: String, with: String, reason: String) throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let good = folder + "/good.json", bad = folder + "/bad.json"
        let text: String = Self.report(board: "x", invokeMedian: 1, invokeP99: 1)
        #expect(text.ranges(of: replacing).count == 1, "the change applies once")
        TestImages.write(Array(text.utf8), to: good)
        TestImages.write(Array(text.replacing(replacing, with: with).utf8), to: bad)
        let result = try runPlantLeaf(["bench", "compare", good, bad])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        let expected: String = "plantleaf bench compare: \(bad) is not a plantleaf bench JSON report: \(reason) "
            + "(write one with plantleaf bench --json FILE)\n"
        #expect(result.stderr == expected)
    }

    /// Why `decode` refuses these bytes, or nil when it reads them.
    static func refusal(_ bytes: [UInt8]) -> String? {
        do {
            _ = try StoredBenchReport.decode(bytes, path: "report.json")
            return nil
        } catch {
            return error.details
        }
    }

    /// A repeated key is one of the same object: quotes, braces and key names inside a value are
    /// text, and the same key in sibling objects is no repeat.
    @Test func keysInsideStringsAndSiblingObjectsAreNoRepeats() {
        let board = #"a\", \"board\": {\"board\": \"b"#
        let text: String = Self.report(board: board, invokeMedian: 1, invokeP99: 1)
            .replacing(#""results": ["#, with: #""results": [{"threads": 2, "stages": {}}, "#)
        #expect(Self.refusal(Array(text.utf8)) == nil)
    }

    /// A report written as UTF-16 is refused as not UTF-8, not as a broken JSON text.
    @Test func compareRefusesReportsThatAreNotUTF8() {
        let text: String = Self.report(board: "x", invokeMedian: 1, invokeP99: 1)
        let utf16: [UInt8] = text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(Self.refusal(utf16) == "not UTF-8 text (plantleaf bench writes UTF-8)")
    }

    /// Text from a report reaches the terminal escaped: an ESC, a newline that would forge a
    /// line or a table row, a right-to-left override, in the header, a stage name and an error.
    @Test func compareEscapesControlCharactersFromReports() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let a = folder + "/a.json", b = folder + "/b.json", bad = folder + "/bad.json"
        let forgedStage = #""stages": {"x\n  invoke 0.001": {"median_ms": 1, "p99_ms": 1}, "#
        let hostile: String = Self.report(board: #"Pi\u001b[2J\nB = forged\u202e"#, invokeMedian: 1, invokeP99: 1)
            .replacing(#""stages": {"#, with: forgedStage)
        TestImages.write(Array(hostile.utf8), to: a)
        TestImages.write(Array(Self.report(board: "y", invokeMedian: 2, invokeP99: 2).utf8), to: b)
        let result = try runPlantLeaf(["bench", "compare", a, b])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdoutLines
        #expect(lines[0] == #"A = \#(a): Pi\x1b[2J\x0aB = forged\xe2\x80\xae, 4x Cortex-A76 (4 cores, aarch64), plantleaf 0.1.0"#)
        #expect(lines.count { $0.hasPrefix("B = ") } == 1)
        #expect(lines.count { $0.hasPrefix("  invoke ") } == 1)
        #expect(lines.contains { $0.hasPrefix(#"  x\x0a  invoke 0.001 "#) })
        #expect(!result.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })

        let badStage = #""stages": {"x\u001b]0;title\u0007": {"median_ms": 0, "p99_ms": 1}, "#
        TestImages.write(Array(Self.report(board: "z", invokeMedian: 1, invokeP99: 1).replacing(#""stages": {"#, with: badStage).utf8), to: bad)
        let refused = try runPlantLeaf(["bench", "compare", bad, b])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains(#"field results[0].stages.x\x1b]0;title\x07.median_ms is 0.0"#), "\(refused.stderr)")
    }

    /// A median of 1e-305 ms passed "above 0" and made an infinite speed-up, whose chart axis
    /// never ended: a time under 100 ns is refused, with --html as without, in time.
    @Test func compareRefusesTimesNoStageTakes() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let good = folder + "/good.json", tiny = folder + "/tiny.json", page = folder + "/page.html"
        TestImages.write(Array(Self.report(board: "x", invokeMedian: 1, invokeP99: 1).utf8), to: good)
        let text = Self.report(board: "x", invokeMedian: 86_400_000, invokeP99: 86_400_000)
            .replacing(#""results": ["#, with: #""results": [{"threads": 2, "stages": {"invoke": {"median_ms": 1e-305, "p99_ms": 1}}}, "#)
        TestImages.write(Array(text.utf8), to: tiny)
        for arguments in [[good, tiny], ["--html", page, good, tiny]] {
            let result = try runPlantLeaf(["bench", "compare"] + arguments, timeLimit: 30)
            #expect(result.status == 2)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "plantleaf bench compare: \(tiny) is not a plantleaf bench JSON report: field results[0].stages.invoke.median_ms "
                + "is 1e-305, not a time from 0.0001 ms (100 ns, the least a timed stage takes) to a day (86400000 ms) "
                + "(write one with plantleaf bench --json FILE)\n")
        }
        #expect(!FileManager.default.fileExists(atPath: page))
    }

    /// 40,000 thread counts and 200,000 op types took minutes and wrote a 50 MB page: compare
    /// shows the 16 fewest thread counts and the 40 slowest op types, says what it cut, and ends
    /// in time with a small page.
    @Test func compareBoundsTheRowsItShows() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let threads = folder + "/threads.json", opTypes = folder + "/op-types.json", page = folder + "/page.html"
        let stages = #"{"invoke": {"median_ms": 2, "p99_ms": 3}, "end_to_end": {"median_ms": 3, "p99_ms": 4}}"#
        let results = (1...40_000).map { #"{"threads": \#($0), "stages": \#(stages)}"# }.joined(separator: ",")
        let header = #"{"schema_version": 3, "plantleaf_version": "0.1.0", "machine": {"architecture": "x86_64", "cpu_model": "cpu", "#
            + #""board": "b", "cores": 2}, "model": {"path": "m.tflite", "sha256": "ab"}, "results": ["#
        TestImages.write(Array((header + results + "]}").utf8), to: threads)
        let types = (0..<200_000).map { #"{"name": "T\#($0)", "count": 1, "median_ms": \#(Double($0 % 1000) / 1000)}"# }.joined(separator: ",")
        let profile = #""profile": {"ops": [{"node": 1, "xnnpack": true, "name": "T1", "median_ms": 0.1}], "op_types": [\#(types)]}"#
        TestImages.write(Array((header + #"{"threads": 1, "stages": \#(stages), \#(profile)}]}"#).utf8), to: opTypes)

        let result = try runPlantLeaf(["bench", "compare", "--html", page, opTypes, opTypes, threads], timeLimit: 90)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdoutLines
        #expect(lines.contains("cut: shown are the 16 fewest of 40000 thread counts (up to 16 threads); the other 39984 are left out"))
        #expect(lines.count { $0.hasPrefix("Threads ") && $0.contains(": median,") } == 16)
        #expect(lines.contains("  cut: shown are the 40 slowest of 200000 op types; the other 199960 are left out"))
        #expect(lines.count < 400)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("cut: shown are the 16 fewest of 40000 thread counts"))
        #expect(html.contains("cut: shown are the 40 slowest of 200000 op types"))
        #expect(html.utf8.count < 1_000_000, "the page has \(html.utf8.count) bytes")
    }

    /// Standard input can be read once: `compare - -` is a usage error before anything is read.
    @Test func compareTakesStandardInputOnce() throws {
        let result = try runPlantLeaf(["bench", "compare", "-", "-"])
        #expect(result.status == 2)
        #expect(result.stderr == "plantleaf bench compare: - (standard input) can be given once (see plantleaf bench --help)\n")
    }

    @Test(arguments: [
        (["--threads", "0"], "--threads values must be from 1 to 64, got 0"),
        (["--threads", "1,0,2"], "--threads values must be from 1 to 64, got 0"),
        (["--threads", "1,,2"], "--threads must be whole numbers separated by commas, got '1,,2'"),
        (["--threads", "2,2"], "--threads lists 2 twice"),
        (["--runs", "0"], "--runs must be from 1 to 1000000, got 0"),
        (["--warmup", "-1"], "--warmup must be from 0 to 1000000, got -1"),
        (["--min-seconds", "-2"], "--min-seconds must be from 0 to 86400, got -2"),
        (["--synthetic", "--image", "leaf.jpg"], "give --image or --synthetic, not both"),
        (["--json", "/no/such/folder/bench.json"], "cannot write --json file /no/such/folder/bench.json: no such file or directory"),
        (["--cpus", "3-1"], "--cpus must be CPU numbers and ranges separated by commas, like 4-7 or 0,2, got '3-1'"),
        (["--cpus", "0,5000"], "--cpus names CPU 5000; CPU numbers go up to 1023"),
    ])
    func rejectsBadOptions(arguments: [String], message: String) throws {
        let result = try runPlantLeaf(["bench"] + arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "plantleaf bench: \(message) (see plantleaf bench --help)\n")
    }

    @Test func missingImageIsOneClearLine() throws {
        let result = try runPlantLeaf(["bench", "--image", "/no/such/leaf.jpg", "--runs", "1"])
        #expect(result.status == 2)
        #expect(result.stderr == "plantleaf bench: cannot read benchmark image /no/such/leaf.jpg: no such file or directory "
                + "(pass --image FILE, or --synthetic to need no file)\n")
    }

    /// A report in the schema's shape with chosen invoke times; other stages take 1 ms.
    static func report(board: String, invokeMedian: Double, invokeP99: Double, invokeQuartiles: (Double, Double)? = nil) -> String {
        let stages = Self.stages.map { name in
            let (median, p99) = name == "invoke" ? (invokeMedian, invokeP99) : (1.0, 1.0)
            let quartiles = invokeQuartiles.map { name == "invoke" ? "\"p25_ms\": \($0.0), \"p75_ms\": \($0.1), " : "" } ?? ""
            return "\"\(name)\": {\"count\": 5, \"min_ms\": \(median), \(quartiles)\"median_ms\": \(median), \"mean_ms\": \(median), "
                + "\"stddev_ms\": 0, \"p90_ms\": \(p99), \"p99_ms\": \(p99), \"max_ms\": \(p99)}"
        }.joined(separator: ", ")
        return """
            {"schema_version": 3, "plantleaf_version": "0.1.0", "started_at": "2026-11-30T10:00:00Z",
             "machine": {"architecture": "aarch64", "cpu_model": "4x Cortex-A76", "cpu_hardware": "unknown", "board": "\(board)",
                         "cores": 4, "kernel": "6.6.31"},
             "model": {"path": "Models/plantvillage_int8.tflite", "sha256": "13f357a6"},
             "results": [{"threads": 1, "images_per_second": \(1000 / (invokeMedian + 4)), "stages": {\(stages)}}]}
            """
    }
}
