import CLiteRt
import PlantLeafSupport

/// One model compiled for the CPU by LiteRT, with a host-memory buffer for its single input and
/// its first output. LiteRT reads the model from the bytes its `ModelFile` mapped and checked.
///
/// Not safe for concurrent use: LiteRT runs on one compiled model were not tested from several
/// threads at once, so callers serialise `invoke()`.
public final class Interpreter {
    /// How an interpreter is set up: where the runtime is, how it runs. Every runtime setting is
    /// here, so a new one is added to this value and read where the interpreter is built.
    public struct Options: Sendable, Equatable {
        /// Where libLiteRt.so is: paths tried in order, the first that exists is loaded (each
        /// must hold a `/`: a bare name would make the system loader search its own path). The
        /// process keeps the first library it loads.
        public var runtimeLibraryCandidates: [String]
        /// CPU threads for each inference.
        public var threads: Int
        /// Compile with LiteRT's per-op profiler, so `startProfiling()` and `stopProfiling()`
        /// can time each op. Off by default: profiling adds its own cost to every invoke.
        public var profiling: Bool
        /// The folder for XNNPACK's weight cache (see `WeightCache`), or nil for none. A cache
        /// that cannot be used is no error: the model is compiled without, as `weightCache` says.
        public var weightCacheFolder: String?

        /// Options with the runtime at one of `runtimeLibraryCandidates`.
        public init(runtimeLibraryCandidates: [String], threads: Int = 1, profiling: Bool = false, weightCacheFolder: String? = nil) {
            self.runtimeLibraryCandidates = runtimeLibraryCandidates
            self.threads = threads
            self.profiling = profiling
            self.weightCacheFolder = weightCacheFolder
        }

        /// Options with the runtime at `runtimeLibraryPath`.
        public init(runtimeLibraryPath: String, threads: Int = 1) {
            self.init(runtimeLibraryCandidates: [runtimeLibraryPath], threads: threads)
        }
    }

    /// The most bytes the input or the output tensor may take. A model declares its own sizes,
    /// and LiteRT, the resizer and the scorer allocate and fill whatever it declares: a
    /// 30000x30000 input cost 5 GB and half a minute per image. 64 MiB holds an int8 input of
    /// 4729x4729 pixels or a float32 one of 2364x2364, far above any image classifier's.
    public static let maximumTensorBytes = 64 * 1_048_576

    /// The input sides `init(modelPath:options:inputSide:)` resizes to: below 32 pixels a
    /// MobileNet's five stride-2 stages leave less than one cell.
    public static let resizableSides = 32...1024

    public let modelPath: String
    public let input: TensorInfo
    public let output: TensorInfo
    /// The model's pooled feature vector, read from the same invoke as `output` when the
    /// interpreter was made with `pooledFeature` and the model has one (`PooledFeatureOutput`).
    public let feature: TensorInfo?
    public let options: Options
    public var threads: Int { options.threads }
    /// The model file's size in bytes.
    public var modelByteCount: Int { handles.modelFile.bytes.count }
    /// Whether the weight cache was read, written or not used.
    public let weightCache: WeightCacheState
    private let handles: Handles

    /// Maps and checks the model at `modelPath`, then compiles it. With `inputSide`, its input is
    /// resized to `inputSide`×`inputSide` after compiling: a fully convolutional network up to
    /// its pooling (MobileNetV2) runs on a smaller picture for less work, with the same weights.
    ///
    /// - Throws: `RuntimeError`: an invalid thread count or input side, a runtime library missing
    ///   or unusable, a model missing, unreadable, damaged or unsupported, or a LiteRT call that fails.
    /// With `pooledFeature`, the model's last global pool becomes a second output (`feature`).
    public convenience init(modelPath: String, options: Options, inputSide: Int? = nil, pooledFeature: Bool = false) throws(RuntimeError) {
        // The thread count and the library before the model: with several things wrong, the
        // first reported is the one to fix first.
        try Interpreter.checkPrerequisites(options)
        if let inputSide, !Interpreter.resizableSides.contains(inputSide) {
            throw .invalidInputSide(inputSide, allowed: Interpreter.resizableSides)
        }
        try self.init(compiling: ModelFile(path: modelPath, inputSide: inputSide, pooledFeature: pooledFeature), options: options,
                      inputSide: inputSide)
    }

    /// Compiles a model already mapped and checked; several interpreters may share one.
    ///
    /// - Throws: `RuntimeError`, as `init(modelPath:options:)` does after the model check.
    public convenience init(model: ModelFile, options: Options) throws(RuntimeError) {
        try Interpreter.checkPrerequisites(options)
        try self.init(compiling: model, options: options)
    }

    private static func checkPrerequisites(_ options: Options) throws(RuntimeError) {
        guard options.threads >= 1 else { throw .invalidThreadCount(options.threads) }
        try LiteRtLibrary.load(candidates: options.runtimeLibraryCandidates)
    }

    private init(compiling modelFile: ModelFile, options: Options, inputSide: Int? = nil) throws(RuntimeError) {
        let modelPath = modelFile.path
        let threads = options.threads
        self.modelPath = modelPath
        self.options = options

        // Build everything into an object of its own first: a throw part-way leaves `self`
        // uninitialised, and that object releases what was created so far.
        let handles = Handles(modelFile: modelFile)
        // CPU only, said once for the environment and the compilation: registering only the CPU
        // stops the library probing for GPU libraries at start-up, which boards do not use.
        let accelerator = Int32(kPLAcceleratorCPU)
        var environmentOptions = [
            LiteRtEnvOption(tag: Int32(kPLEnvOptionAutoRegisterAccelerators),
                            value: LiteRtAny(type: Int32(kPLAnyTypeInt), .init(int_value: Int64(accelerator)))),
            LiteRtEnvOption(tag: Int32(kPLEnvOptionMinLogSeverity),
                            value: LiteRtAny(type: Int32(kPLAnyTypeInt), .init(int_value: Int64(kPLLogSeverityError)))),
        ]
        try check(pl_LiteRtCreateEnvironment(Int32(environmentOptions.count), &environmentOptions, &handles.environment),
                  "LiteRtCreateEnvironment", modelPath)
        try check(pl_LiteRtCreateModelFromBuffer(handles.environment, modelFile.bytes.baseAddress, modelFile.bytes.count, &handles.model),
                  "LiteRtCreateModelFromBuffer", modelPath)

        var signature: LiteRtSignature?
        try check(pl_LiteRtGetModelSignature(handles.model, 0, &signature), "LiteRtGetModelSignature", modelPath)
        var inputCount = 0, outputCount = 0
        try check(pl_LiteRtGetNumSignatureInputs(signature, &inputCount), "LiteRtGetNumSignatureInputs", modelPath)
        try check(pl_LiteRtGetNumSignatureOutputs(signature, &outputCount), "LiteRtGetNumSignatureOutputs", modelPath)
        guard inputCount == 1, outputCount >= 1 else {
            throw .unsupportedModel(path: modelPath, reason: "expected 1 input and 1 output, found \(inputCount) and \(outputCount)")
        }
        var inputTensor: LiteRtTensor?, outputTensor: LiteRtTensor?, featureTensor: LiteRtTensor?
        try check(pl_LiteRtGetSignatureInputTensorByIndex(signature, 0, &inputTensor), "LiteRtGetSignatureInputTensorByIndex", modelPath)
        // The scores are the model's own output; the pooled tensor, when added, is told by its name.
        var scoreIndex = 0, featureIndex: Int?
        if outputCount == 2, let featureName = modelFile.pooledFeatureName {
            for index in 0..<2 {
                var tensor: LiteRtTensor?
                try check(pl_LiteRtGetSignatureOutputTensorByIndex(signature, index, &tensor), "LiteRtGetSignatureOutputTensorByIndex", modelPath)
                if try Interpreter.describe(tensor, modelPath: modelPath).name == featureName {
                    featureIndex = index
                    featureTensor = tensor
                } else {
                    scoreIndex = index
                }
            }
        }
        try check(pl_LiteRtGetSignatureOutputTensorByIndex(signature, scoreIndex, &outputTensor),
                  "LiteRtGetSignatureOutputTensorByIndex", modelPath)
        // Only one output buffer (and the added feature's) is bound when the model runs, so a
        // model with more would load and then fail on every image: refused here instead.
        guard outputCount == (featureIndex == nil ? 1 : 2) else {
            var names: [String] = []
            for index in 0..<outputCount {
                var tensor: LiteRtTensor?
                try check(pl_LiteRtGetSignatureOutputTensorByIndex(signature, index, &tensor), "LiteRtGetSignatureOutputTensorByIndex", modelPath)
                names.append(try Interpreter.describe(tensor, modelPath: modelPath).name)
            }
            throw .unsupportedModel(path: modelPath, reason: "it has \(outputCount) outputs (\(names.joined(separator: ", "))); "
                                    + "PlantLeaf reads models with one output, [1, classes]")
        }

        // Refuse a model PlantLeaf cannot feed before compiling it: its own declared shapes
        // (a -1 batch is allowed here; the compiled layouts below resolve it).
        try Interpreter.checkSupported(input: try Interpreter.describe(inputTensor, modelPath: modelPath),
                                       output: try Interpreter.describe(outputTensor, modelPath: modelPath),
                                       modelPath: modelPath)

        try check(pl_LiteRtCreateOptions(&handles.options), "LiteRtCreateOptions", modelPath)
        try check(pl_LiteRtSetOptionsHardwareAccelerators(handles.options, accelerator),
                  "LiteRtSetOptionsHardwareAccelerators", modelPath)
        var cache: WeightCache?
        var cacheState = WeightCacheState.off
        if let folder = options.weightCacheFolder {
            // Loaded already by checkPrerequisites: this only names the path.
            let runtimePath = try LiteRtLibrary.load(candidates: options.runtimeLibraryCandidates)
            do {
                cache = try WeightCache(folder: folder, model: modelFile, runtimePath: runtimePath)
            } catch {
                cacheState = .unavailable(error.reason)
            }
        }
        let cacheOption = cache.map { "weight_cache_file_path = \"\($0.compilePath)\"\n" } ?? ""
        try check(pl_litert_add_toml_options(handles.options, "xnnpack", "num_threads = \(threads)\n" + cacheOption),
                  "LiteRtAddOpaqueOptions(xnnpack)", modelPath)
        if options.profiling {
            try check(pl_litert_add_toml_options(handles.options, "runtime_options_string", "enable_profiling = true\n"),
                      "LiteRtAddOpaqueOptions(runtime_options_string)", modelPath)
        }
        // Compiling creates the XNNPACK delegate, which announces itself on stderr. Callers
        // create interpreters while no other thread of theirs writes to stderr (BatchClassifier
        // sets all its workers up before starting them): the capture redirects the process's fd 2.
        // XNNPACK's pool does not report threads it failed to start: it then scores garbage
        // and crashes when destroyed. Refuse up front instead.
        do {
            try WorkerThread.checkStartable(threads - 1)
        } catch {
            throw .threadsUnavailable(threads: threads, reason: error.reason)
        }
        var capture = PLStderrCapture()
        pl_stderr_capture_begin(&capture)
        let compileStatus = pl_LiteRtCreateCompiledModel(handles.environment, handles.model, handles.options, &handles.compiledModel)
        // The runtime's "INFO: " lines are noise; anything else it said goes on to stderr.
        pl_stderr_capture_end(&capture) { line in
            String(cString: line!).utf8.starts(with: "INFO: ".utf8) ? 0 : 1
        }
        if compileStatus != LiteRtStatus(kPLStatusOk) { cache?.abandon() }
        try check(compileStatus, "LiteRtCreateCompiledModel", modelPath)
        weightCache = cache?.commit() ?? cacheState
        if options.profiling {
            try check(pl_LiteRtCompiledModelGetProfiler(handles.compiledModel, &handles.profiler), "LiteRtCompiledModelGetProfiler", modelPath)
        }

        if let inputSide {
            var dimensions: [Int32] = [1, Int32(inputSide), Int32(inputSide), 3]
            try check(pl_LiteRtCompiledModelResizeInputTensorNonStrict(handles.compiledModel, 0, 0, &dimensions, dimensions.count),
                      "LiteRtCompiledModelResizeInputTensorNonStrict", modelPath)
        }
        // The compiled model's layouts have dynamic dimensions (a -1 batch) resolved, and a
        // resized input's new shape carried through to the output (update_allocation).
        var inputLayout = LiteRtLayout()
        try check(pl_LiteRtGetCompiledModelInputTensorLayout(handles.compiledModel, 0, 0, &inputLayout),
                  "LiteRtGetCompiledModelInputTensorLayout", modelPath)
        var outputLayouts = [LiteRtLayout](repeating: LiteRtLayout(), count: outputCount)
        try check(pl_LiteRtGetCompiledModelOutputTensorLayouts(handles.compiledModel, 0, outputCount, &outputLayouts, inputSide != nil),
                  "LiteRtGetCompiledModelOutputTensorLayouts", modelPath)

        let input = try Interpreter.describe(inputTensor, resolvedLayout: inputLayout, modelPath: modelPath)
        let output = try Interpreter.describe(outputTensor, resolvedLayout: outputLayouts[scoreIndex], modelPath: modelPath)
        try Interpreter.checkSupported(input: input, output: output, modelPath: modelPath)

        handles.inputBuffer = try Interpreter.makeBuffer(for: input, layout: inputLayout, environment: handles.environment, modelPath: modelPath)
        handles.outputBuffer = try Interpreter.makeBuffer(for: output, layout: outputLayouts[scoreIndex], environment: handles.environment,
                                                          modelPath: modelPath)
        var feature: TensorInfo?
        if let featureIndex {
            let described = try Interpreter.describe(featureTensor, resolvedLayout: outputLayouts[featureIndex], modelPath: modelPath)
            // Read as the scores are: a feature PlantLeaf could not dequantise is no feature.
            if described.elementType == .float32 || ([.int8, .uint8].contains(described.elementType) && described.quantization != nil),
               Interpreter.sizeProblem(described) == nil {
                feature = described
            }
            handles.featureBuffer = try Interpreter.makeBuffer(for: described, layout: outputLayouts[featureIndex],
                                                               environment: handles.environment, modelPath: modelPath)
            handles.outputOrder = featureIndex == 1 ? [handles.outputBuffer, handles.featureBuffer] : [handles.featureBuffer, handles.outputBuffer]
        } else {
            handles.outputOrder = [handles.outputBuffer]
        }

        self.input = input
        self.output = output
        self.feature = feature
        self.handles = handles
    }

    /// The input's height and width (the model's input is [1, H, W, 3]).
    public var inputSize: (width: Int, height: Int) { (input.shape[2], input.shape[1]) }

    /// Gives `body` the input tensor's memory to fill (input.byteCount bytes).
    ///
    /// - Throws: `RuntimeError.callFailed` when the input buffer cannot be locked.
    public func writeInput<Result>(_ body: (UnsafeMutableRawBufferPointer) -> Result) throws(RuntimeError) -> Result {
        var memory: UnsafeMutableRawPointer?
        try check(pl_LiteRtLockTensorBuffer(handles.inputBuffer, &memory, Int32(kPLLockModeWrite)), "LiteRtLockTensorBuffer", modelPath)
        defer { _ = pl_LiteRtUnlockTensorBuffer(handles.inputBuffer) }
        return body(UnsafeMutableRawBufferPointer(start: memory, count: input.byteCount))
    }

    /// Runs the model on what the input buffer holds.
    ///
    /// - Throws: `RuntimeError.callFailed` with LiteRT's status.
    public func invoke() throws(RuntimeError) {
        var inputs: [LiteRtTensorBuffer?] = [handles.inputBuffer]
        var outputs = handles.outputOrder
        try check(pl_LiteRtRunCompiledModel(handles.compiledModel, 0, 1, &inputs, outputs.count, &outputs), "LiteRtRunCompiledModel", modelPath)
    }

    /// The pooled feature vector of the last invoke, dequantised; nil without `feature`.
    ///
    /// - Throws: `RuntimeError.callFailed` when the feature buffer cannot be locked.
    public func readFeature() throws(RuntimeError) -> [Float]? {
        guard let feature else { return nil }
        var memory: UnsafeMutableRawPointer?
        try check(pl_LiteRtLockTensorBuffer(handles.featureBuffer, &memory, Int32(kPLLockModeRead)), "LiteRtLockTensorBuffer", modelPath)
        defer { _ = pl_LiteRtUnlockTensorBuffer(handles.featureBuffer) }
        return Scores.dequantize(UnsafeRawBufferPointer(start: memory, count: feature.byteCount), tensor: feature).map { Float($0) }
    }

    /// Gives `body` the output tensor's memory (output.byteCount bytes) to read.
    ///
    /// - Throws: `RuntimeError.callFailed` when the output buffer cannot be locked.
    public func readOutput<Result>(_ body: (UnsafeRawBufferPointer) -> Result) throws(RuntimeError) -> Result {
        var memory: UnsafeMutableRawPointer?
        try check(pl_LiteRtLockTensorBuffer(handles.outputBuffer, &memory, Int32(kPLLockModeRead)), "LiteRtLockTensorBuffer", modelPath)
        defer { _ = pl_LiteRtUnlockTensorBuffer(handles.outputBuffer) }
        return body(UnsafeRawBufferPointer(start: memory, count: output.byteCount))
    }

    /// Forgets what the profiler recorded and starts recording the ops of the next invokes.
    /// Only for an interpreter compiled with `Options.profiling`.
    ///
    /// - Throws: `RuntimeError.callFailed` with LiteRT's status.
    public func startProfiling() throws(RuntimeError) {
        precondition(options.profiling, "startProfiling() needs an interpreter compiled with Options.profiling")
        try check(pl_LiteRtResetProfiler(handles.profiler), "LiteRtResetProfiler", modelPath)
        try check(pl_LiteRtStartProfiler(handles.profiler), "LiteRtStartProfiler", modelPath)
    }

    /// Stops recording and returns the op events since `startProfiling()`, in the order they ran.
    /// Runtime spans (the invoke itself, buffer registration) are left out.
    ///
    /// - Throws: `RuntimeError.callFailed` with LiteRT's status.
    public func stopProfiling() throws(RuntimeError) -> [OperatorEvent] {
        precondition(options.profiling, "stopProfiling() needs an interpreter compiled with Options.profiling")
        try check(pl_LiteRtStopProfiler(handles.profiler), "LiteRtStopProfiler", modelPath)
        var count: Int32 = 0
        try check(pl_LiteRtGetNumProfilerEvents(handles.profiler, &count), "LiteRtGetNumProfilerEvents", modelPath)
        guard count > 0 else { return [] }
        var events = [PLProfiledEvent](repeating: PLProfiledEvent(), count: Int(count))
        try check(pl_LiteRtGetProfilerEvents(handles.profiler, count, &events), "LiteRtGetProfilerEvents", modelPath)
        let operatorTypes: Set<Int32> = [Int32(kPLProfilerEventOperator), Int32(kPLProfilerEventDelegatedOperator)]
        return events.compactMap { event in
            guard operatorTypes.contains(event.event_type), let tag = event.tag else { return nil }
            return OperatorEvent(name: String(cString: tag), node: Int(truncatingIfNeeded: event.metadata1),
                                 delegated: event.event_type == Int32(kPLProfilerEventDelegatedOperator),
                                 microseconds: Double(event.elapsed_us))
        }
    }

    // MARK: - Construction helpers

    /// Every LiteRT handle of one interpreter, and the model bytes they read. Released in the
    /// order LiteRT needs (buffers, compiled model, options, model, environment); the bytes go
    /// after all of them, since a stored property outlives its object's deinit.
    private final class Handles {
        let modelFile: ModelFile
        var environment: LiteRtEnvironment?
        var model: LiteRtModel?
        var options: LiteRtOptions?
        var compiledModel: LiteRtCompiledModel?
        /// Owned by the compiled model.
        var profiler: LiteRtProfiler?
        var inputBuffer: LiteRtTensorBuffer?
        var outputBuffer: LiteRtTensorBuffer?
        var featureBuffer: LiteRtTensorBuffer?
        /// The output buffers in the signature's order, as each invoke binds them.
        var outputOrder: [LiteRtTensorBuffer?] = []

        init(modelFile: ModelFile) { self.modelFile = modelFile }

        deinit {
            if let inputBuffer { pl_LiteRtDestroyTensorBuffer(inputBuffer) }
            if let outputBuffer { pl_LiteRtDestroyTensorBuffer(outputBuffer) }
            if let featureBuffer { pl_LiteRtDestroyTensorBuffer(featureBuffer) }
            if let compiledModel { pl_LiteRtDestroyCompiledModel(compiledModel) }
            if let options { pl_LiteRtDestroyOptions(options) }
            if let model { pl_LiteRtDestroyModel(model) }
            if let environment { pl_LiteRtDestroyEnvironment(environment) }
        }
    }

    /// The tensor's name, type and quantisation from the model; its shape from `resolvedLayout`
    /// when given, else as the model declares it.
    private static func describe(_ tensor: LiteRtTensor?, resolvedLayout: LiteRtLayout? = nil,
                                 modelPath: String) throws(RuntimeError) -> TensorInfo {
        var namePointer: UnsafePointer<CChar>?
        try check(pl_LiteRtGetTensorName(tensor, &namePointer), "LiteRtGetTensorName", modelPath)
        let name = namePointer.map { String(cString: $0) } ?? ""
        var typeId: Int32 = 0
        try check(pl_LiteRtGetTensorTypeId(tensor, &typeId), "LiteRtGetTensorTypeId", modelPath)
        guard typeId == Int32(kPLTensorTypeRanked) else {
            throw .unsupportedModel(path: modelPath, reason: "tensor \(name) has no fixed rank")
        }
        var rankedType = LiteRtRankedTensorType()
        try check(pl_LiteRtGetRankedTensorType(tensor, &rankedType), "LiteRtGetRankedTensorType", modelPath)
        guard let elementType = ElementType(rawValue: rankedType.element_type) else {
            throw .unsupportedModel(path: modelPath, reason: "tensor \(name) has element type \(rankedType.element_type)")
        }
        var quantizationType: Int32 = 0
        try check(pl_LiteRtGetQuantizationTypeId(tensor, &quantizationType), "LiteRtGetQuantizationTypeId", modelPath)
        var quantization: Quantization?
        if quantizationType == Int32(kPLQuantizationPerTensor) {
            var parameters = LiteRtQuantizationPerTensor()
            try check(pl_LiteRtGetPerTensorQuantization(tensor, &parameters), "LiteRtGetPerTensorQuantization", modelPath)
            quantization = Quantization(scale: parameters.scale, zeroPoint: Int(parameters.zero_point))
        }
        return TensorInfo(name: name, elementType: elementType, shape: dimensions(of: resolvedLayout ?? rankedType.layout),
                          quantization: quantization)
    }

    private static func dimensions(of layout: LiteRtLayout) -> [Int] {
        var copy = layout
        let rank = Int(pl_layout_rank(&copy))
        return withUnsafeBytes(of: layout.dimensions) { raw in
            (0..<min(rank, 8)).map { Int(raw.load(fromByteOffset: $0 * 4, as: Int32.self)) }
        }
    }

    private static func checkSupported(input: TensorInfo, output: TensorInfo, modelPath: String) throws(RuntimeError) {
        let shape = input.shape
        guard shape.count == 4, shape[0] == 1 || shape[0] == -1, shape[1] > 0, shape[2] > 0, shape[3] == 3 else {
            throw .unsupportedModel(path: modelPath, reason: "input \(input.name) is \(shape), expected [1, H, W, 3] (one RGB image)")
        }
        let feedable: [ElementType] = [.int8, .uint8, .float32]
        guard feedable.contains(input.elementType) else {
            throw .unsupportedModel(path: modelPath, reason: "input \(input.name) is \(input.elementType); int8, uint8 or float32 expected")
        }
        guard feedable.contains(output.elementType) else {
            throw .unsupportedModel(path: modelPath, reason: "output \(output.name) is \(output.elementType); int8, uint8 or float32 expected")
        }
        // [1, classes] or [classes]; a -1 batch is resolved to 1 when compiled.
        guard let classes = output.shape.last, classes > 0, output.shape.dropLast().allSatisfy({ $0 == 1 || $0 == -1 }) else {
            throw .unsupportedModel(path: modelPath, reason: "output \(output.name) is \(output.shape), expected [1, classes]")
        }
        for (role, tensor) in [("input", input), ("output", output)] {
            if let problem = Interpreter.sizeProblem(tensor) {
                throw .unsupportedModel(path: modelPath, reason: "\(role) \(tensor.name) is \(tensor.shape) \(tensor.elementType), \(problem)")
            }
            guard tensor.elementType != .float32 else { continue }
            guard let quantization = tensor.quantization else {
                throw .unsupportedModel(path: modelPath, reason: "\(role) \(tensor.name) is \(tensor.elementType) without per-tensor quantisation")
            }
            if let problem = quantization.problem(for: tensor.elementType) {
                throw .unsupportedModel(path: modelPath, reason: "\(role) \(tensor.name) \(problem)")
            }
        }
    }

    /// Why a tensor is over ``maximumTensorBytes`` (its dimensions multiplied without
    /// overflowing), or nil. A -1 (batch) dimension counts as 1, as it is resolved when compiled.
    private static func sizeProblem(_ tensor: TensorInfo) -> String? {
        var bytes = tensor.elementType.byteWidth
        for dimension in tensor.shape {
            let (product, overflow) = bytes.multipliedReportingOverflow(by: max(dimension, 1))
            guard !overflow, product <= maximumTensorBytes else {
                return "more than the \(maximumTensorBytes / 1_048_576) MiB tensor budget"
            }
            bytes = product
        }
        return nil
    }

    private static func makeBuffer(for tensor: TensorInfo, layout: LiteRtLayout, environment: LiteRtEnvironment?,
                                   modelPath: String) throws(RuntimeError) -> LiteRtTensorBuffer? {
        var type = LiteRtRankedTensorType(element_type: tensor.elementType.rawValue, layout: layout)
        var buffer: LiteRtTensorBuffer?
        try check(pl_LiteRtCreateManagedTensorBuffer(environment, Int32(kPLTensorBufferTypeHostMemory), &type, tensor.byteCount, &buffer),
                  "LiteRtCreateManagedTensorBuffer", modelPath)
        return buffer
    }
}

private func check(_ status: LiteRtStatus, _ function: String, _ modelPath: String) throws(RuntimeError) {
    if status != LiteRtStatus(kPLStatusOk) { throw .callFailed(function: function, status: status, context: modelPath) }
}
