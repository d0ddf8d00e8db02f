import PlantLeafCore
import Glibc
import PlantLeafSupport

/// What `plantleaf bench` measures and how long.
public struct BenchSettings: Sendable {
    /// The classifier measured; its runtime's thread count is replaced by each of `threadCounts`.
    public var classifier: Classifier.Options
    /// nil benchmarks the synthetic leaf (`SyntheticLeaf`).
    public var imagePath: String?
    /// Measured runs per thread count (at least this many; see `minimumSeconds`).
    public var runs: Int
    public var warmup: Int
    public var threadCounts: [Int]
    /// Keep measuring past `runs` until this much time has been spent measuring.
    public var minimumSeconds: Double
    /// The program being measured (its name and version), recorded in the report.
    public var softwareVersion: String
    /// After each thread count's measured runs, profile as many invokes op by op on a second
    /// interpreter compiled with LiteRT's profiler.
    public var profile: Bool
    /// The CPUs to measure on (`--cpus`); nil leaves the scheduler free to use every core.
    public var cpus: CPUSet?

    /// Settings for one benchmark; `validate()` checks them before anything runs.
    public init(classifier: Classifier.Options, imagePath: String?, runs: Int = 100, warmup: Int = 10,
                threadCounts: [Int] = [1], minimumSeconds: Double = 0, softwareVersion: String, profile: Bool = false,
                cpus: CPUSet? = nil) {
        self.classifier = classifier
        self.imagePath = imagePath
        self.runs = runs
        self.warmup = warmup
        self.threadCounts = threadCounts
        self.minimumSeconds = minimumSeconds
        self.softwareVersion = softwareVersion
        self.profile = profile
        self.cpus = cpus
    }

    /// Refuses settings that would measure nothing.
    ///
    /// - Throws: `BenchError.invalidSettings` naming the first setting out of range.
    public func validate() throws(BenchError) {
        if threadCounts.isEmpty { throw .invalidSettings("no thread count given") }
        if let threads = threadCounts.first(where: { $0 < 1 }) { throw .invalidSettings("thread counts must be at least 1, got \(threads)") }
        if runs < 1 { throw .invalidSettings("runs must be at least 1, got \(runs)") }
        if warmup < 0 { throw .invalidSettings("warm-up runs must be at least 0, got \(warmup)") }
        if !(minimumSeconds >= 0) { throw .invalidSettings("minimum seconds must be at least 0, got \(minimumSeconds)") }
    }
}

/// Runs the classify pipeline repeatedly on one image and times each stage.
public struct BenchRunner {
    public var settings: BenchSettings
    public var machineReader: MachineInfoReader
    /// Seconds between frequency/temperature samples during the measured runs (taken between runs).
    static let sampleInterval = 0.5

    /// A runner for `settings`; `machineReader` reads CPU, board and sensors (a fake one in tests).
    public init(settings: BenchSettings, machineReader: MachineInfoReader = MachineInfoReader()) {
        self.settings = settings
        self.machineReader = machineReader
    }

    /// `progress` receives a short status now and then (between runs, never inside a timed stage).
    ///
    /// - Throws: `BenchError`: invalid settings, an image that cannot be read or decoded, a model
    ///   or runtime that cannot be set up, or an inference that fails.
    public func run(progress: (String) -> Void = { _ in }) throws(BenchError) -> BenchResult {
        try settings.validate()
        // Before any interpreter exists, so LiteRT's worker threads inherit the CPUs.
        if let cpus = settings.cpus {
            do { try cpus.pin() } catch { throw .pinning(error) }
        }
        let allocatorSettled = Allocator.keepFreedMemory()
        let startedAt = WallClock.utcISO8601()
        let (bytes, imageName) = try loadImage()
        var conditions = ConditionLog()
        conditions.loadAverageBefore = machineReader.loadAverage()
        conditions.temperaturesBefore = machineReader.temperatures()
        conditions.frequenciesBefore = machineReader.frequencies()
        conditions.record(temperatures: conditions.temperaturesBefore, frequencies: conditions.frequenciesBefore)

        let libraryStart = MonotonicClock.nanoseconds()
        let liteRtPath: String
        do {
            liteRtPath = try LiteRtLibrary.load(candidates: settings.classifier.runtime.runtimeLibraryCandidates)
        } catch {
            throw .setup(.runtime(error))
        }
        let libraryLoad = MonotonicClock.milliseconds(since: libraryStart)

        let weightCache = try measureWeightCache()
        var runs: [ThreadRunResult] = []
        var model: (input: TensorInfo, decoded: PreparedInput)?
        for threads in settings.threadCounts {
            let measured = try measure(threads: threads, bytes: bytes, imageName: imageName, conditions: &conditions, progress: progress)
            runs.append(measured.run)
            model = (measured.input, measured.decoded)
        }

        conditions.temperaturesAfter = machineReader.temperatures()
        conditions.frequenciesAfter = machineReader.frequencies()
        conditions.record(temperatures: conditions.temperaturesAfter, frequencies: conditions.frequenciesAfter)
        // validate() saw at least one thread count, and each one set this.
        guard let (input, decoded) = model else { throw .invalidSettings("no thread count given") }
        return BenchResult(settings: settings, startedAt: startedAt, machine: machineReader.read(), conditions: conditions,
                           modelSHA256: SHA256.hex(ofFile: settings.classifier.modelPath) ?? MachineInfo.unknown,
                           liteRtPath: liteRtPath, liteRtSHA256: SHA256.hex(ofFile: liteRtPath) ?? MachineInfo.unknown,
                           libraryLoadMilliseconds: libraryLoad, allocatorSettled: allocatorSettled,
                           input: input, imageName: imageName, imageSHA256: SHA256.hex(of: bytes),
                           imageFormat: ImageFormat.detect(bytes)?.rawValue ?? MachineInfo.unknown,
                           imageWidth: decoded.sourceWidth, imageHeight: decoded.sourceHeight, imageBytes: bytes.count, runs: runs,
                           weightCache: weightCache)
    }

    /// Compiles the model without the cache, then with it until it is read (a first compile may
    /// build it), timing the cold and the warm compile; nil when no cache folder is set.
    private func measureWeightCache() throws(BenchError) -> WeightCacheTiming? {
        var runtime = settings.classifier.runtime
        runtime.threads = settings.threadCounts[0]
        guard let folder = runtime.weightCacheFolder else { return nil }
        let path = settings.classifier.modelPath
        do {
            var uncached = runtime
            uncached.weightCacheFolder = nil
            let coldStart = MonotonicClock.nanoseconds()
            _ = try Interpreter(modelPath: path, options: uncached)
            let cold = MonotonicClock.milliseconds(since: coldStart)
            let first = try Interpreter(modelPath: path, options: runtime).weightCache
            let state: String
            switch first {
            case .built: state = "built"
            case .loaded: state = "loaded"
            case .unavailable(let reason): return WeightCacheTiming(folder: folder, state: "unavailable: \(reason)", coldMilliseconds: cold)
            case .off: return nil
            }
            let warmStart = MonotonicClock.nanoseconds()
            _ = try Interpreter(modelPath: path, options: runtime)
            return WeightCacheTiming(folder: folder, state: state, coldMilliseconds: cold,
                                     warmMilliseconds: MonotonicClock.milliseconds(since: warmStart))
        } catch {
            throw .setup(.runtime(error))
        }
    }

    /// Builds a classifier with `threads` threads and runs it: once on its own (the first
    /// inference), the warm-up runs, then the measured runs, sampling the machine between runs.
    private func measure(threads: Int, bytes: [UInt8], imageName: String, conditions: inout ConditionLog,
                         progress: (String) -> Void) throws(BenchError) -> (run: ThreadRunResult, input: TensorInfo, decoded: PreparedInput) {
        progress("threads \(threads): loading model")
        let loadStart = MonotonicClock.nanoseconds()
        let classifier: Classifier
        do {
            var options = settings.classifier
            options.runtime.threads = threads
            classifier = try Classifier(options: options)
        } catch {
            throw .setup(error)
        }
        var run = ThreadRunResult(threads: threads, loadCompileMilliseconds: MonotonicClock.milliseconds(since: loadStart),
                                  firstInferenceMilliseconds: 0, samples: [:], statistics: [:], measuredSeconds: 0, peakResidentKiB: 0)
        let first = try timeOnce(classifier, bytes: bytes, imageName: imageName)
        run.firstInferenceMilliseconds = first.timings[.invoke] ?? 0
        for index in 0..<settings.warmup {
            if index % 10 == 0 { progress("threads \(threads): warm-up \(index + 1)/\(settings.warmup)") }
            _ = try timeOnce(classifier, bytes: bytes, imageName: imageName)
        }

        let measureStart = MonotonicClock.nanoseconds()
        var lastSample = measureStart
        var count = 0
        while count < settings.runs || Double(MonotonicClock.nanoseconds() - measureStart) / 1e9 < settings.minimumSeconds {
            let once = try timeOnce(classifier, bytes: bytes, imageName: imageName)
            for (stage, milliseconds) in once.timings { run.samples[stage, default: []].append(milliseconds) }
            run.topClass = once.top
            run.verdict = once.verdict
            count += 1
            let now = MonotonicClock.nanoseconds()
            if Double(now - lastSample) / 1e9 >= BenchRunner.sampleInterval {
                lastSample = now
                conditions.record(temperatures: machineReader.temperatures(), frequencies: machineReader.frequencies())
                progress("threads \(threads): run \(count)/\(settings.runs)")
            }
        }
        run.measuredSeconds = Double(MonotonicClock.nanoseconds() - measureStart) / 1e9
        run.statistics = run.samples.compactMapValues { LatencyStatistics($0) }
        run.peakResidentKiB = BenchRunner.peakResidentKiB()
        if settings.profile { run.profile = try profile(threads: threads, bytes: bytes, imageName: imageName, progress: progress) }
        return (run, classifier.inputTensor, first.prepared)
    }

    /// The op profile of `settings.runs` invokes after the warm-up, on an interpreter of its
    /// own compiled with the profiler, so no measured stage above ran with it.
    private func profile(threads: Int, bytes: [UInt8], imageName: String, progress: (String) -> Void) throws(BenchError) -> OpProfile {
        progress("threads \(threads): profiling ops")
        let classifier: Classifier
        do {
            var options = settings.classifier
            options.runtime.threads = threads
            options.runtime.profiling = true
            classifier = try Classifier(options: options)
        } catch {
            throw .setup(error)
        }
        do throws(InputError<ImageError>) {
            _ = try classifier.prepareInput(bytes: bytes)
        } catch {
            switch error {
            case .unusable(let error): throw .imageUndecodable(path: imageName, error)
            case .runtime(let error): throw .runtime(error)
            }
        }
        var invokes: [(milliseconds: Double, ops: [OperatorEvent])] = []
        do {
            for _ in 0..<settings.warmup { _ = try classifier.profiledInvoke() }
            for _ in 0..<settings.runs { invokes.append(try classifier.profiledInvoke()) }
        } catch {
            throw .runtime(error)
        }
        return OpProfile(invokes: invokes)
    }

    private func loadImage() throws(BenchError) -> (bytes: [UInt8], name: String) {
        guard let path = settings.imagePath else { return (try SyntheticLeaf.jpeg(), "synthetic") }
        do {
            return (try FileReader.readAll(path: path), path)
        } catch {
            throw .imageUnreadable(path: path, reason: error.reason)
        }
    }

    /// One pass through the classify pipeline on in-memory bytes, through the classifier's own
    /// steps: decode (rows streaming through the resize and quantised into the tensor), invoke and
    /// postprocess, each on the monotonic clock.
    private func timeOnce(_ classifier: Classifier, bytes: [UInt8], imageName: String) throws(BenchError)
        -> (timings: [BenchStage: Double], top: ScoredClass?, verdict: Verdict, prepared: PreparedInput) {
        let start = MonotonicClock.nanoseconds()
        let prepared: PreparedInput
        do throws(InputError<ImageError>) {
            prepared = try classifier.prepareInput(bytes: bytes)
        } catch {
            switch error {
            case .unusable(let error): throw .imageUndecodable(path: imageName, error)
            case .runtime(let error): throw .runtime(error)
            }
        }
        let result: Classification
        do {
            result = try classifier.run(timings: prepared.timings)
        } catch {
            throw .runtime(error)
        }
        let total = MonotonicClock.milliseconds(since: start)
        let floorStart = MonotonicClock.nanoseconds()
        do {
            // The classifier's decoder settings, so the same DCT scale.
            try ImageDecoder(minimumSize: classifier.inputSize).decode(bytes, into: DiscardedRows())
        } catch {
            throw .imageUndecodable(path: imageName, error)
        }
        let floor = MonotonicClock.milliseconds(since: floorStart)
        var timings: [BenchStage: Double] = [.prepare: result.timings.prepare, .invoke: result.timings.invoke,
                                             .postprocess: result.timings.postprocess, .endToEnd: total, .decoderAlone: floor]
        // Only a generalist that ran has a time: a skipped check's stage is absent (null in the
        // report), not a 0 no stage takes.
        if result.secondOpinion.leafLikeness != nil { timings[.generalist] = result.timings.generalist }
        return (timings, result.top.first, result.verdict, prepared)
    }

    /// The process's peak resident set size in KiB (Linux reports ru_maxrss in KiB).
    static func peakResidentKiB() -> Int {
        var usage = rusage()
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss)
    }
}
