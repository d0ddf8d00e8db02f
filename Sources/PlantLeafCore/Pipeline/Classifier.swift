import PlantLeafSupport

/// The whole classify path: file → RGB rows → resize → model input → LiteRT → top-k classes.
/// Every caller (batch, bench, camera, frame benchmark) goes through these steps; none reaches
/// into the interpreter, quantiser or decoder.
public final class Classifier {
    private let interpreter: Interpreter
    public let labels: Labels
    private let quantizer: InputQuantizer
    private let decoder: ImageDecoder
    /// Decoded rows stream into it; it keeps its resize plan while a batch keeps one photo size.
    private let resizer: RowResizer
    /// The verdict's readings of the pixels the last prepareInput put into the input tensor.
    private var inputPicture = PictureStatistics()
    /// Those pixels as an image, for the checks that read them again (the generalist model, the
    /// colour balance, the edges); nil before the first input.
    private var inputImage: RGBImage?
    /// The shorter side of the part of the last source the model saw, in source pixels (nil for
    /// camera frames), and the share of the source's area it is.
    private var readSide: Int?
    private var readShare = 1.0
    /// The last source's estimated JPEG quality; nil for a PNG, a decoded image or a camera frame.
    private var jpegQuality: Int?
    /// The generalist check's model and leaf reference, when the check runs and both load.
    private let secondOpinion: SecondOpinion?
    /// Why the generalist check cannot run though it is asked for: every result says it was
    /// skipped, and front ends say why once.
    public let secondOpinionProblem: SecondOpinionError?

    /// What a classifier is built from: the model, its labels, the runtime's options, how
    /// pixels become input values, which part of a picture the model sees and how a result's
    /// verdict is decided.
    public struct Options: Sendable {
        public var modelPath: String
        public var labelsPath: String
        /// Where the runtime is and how it runs (threads).
        public var runtime: Interpreter.Options
        /// The real value fed for a pixel byte; nil takes what the input tensor implies.
        public var normalization: Normalization?
        /// The part of an image file or decoded image the model sees (camera frames are cropped
        /// by their `FrameConverter`).
        public var crop: CropMode
        /// Which verdict checks run, and their thresholds.
        public var verdictPolicy: VerdictPolicy
        /// How many of the best classes a result lists (`Classification.top`), cut to the
        /// classes the model has.
        public var classesPerResult = Options.defaultClassesPerResult
        /// Three: the answer and the two closest to it, what a grower compares.
        public static let defaultClassesPerResult = 3
        /// The generalist check's model and leaf reference; nil leaves the check skipped when
        /// the policy runs it.
        public var secondOpinion: SecondOpinion.Options?
        /// Read the model's pooled feature vector with every result (`Classification.features`),
        /// what a grower's lessons are compared by.
        public var readsFeatures = false
        /// A grower's lessons (their features need `readsFeatures`): a photo close to them is
        /// named by them (`Classification.source`).
        public var lessons: TaughtClasses?
        /// Lessons that may change as it runs (serve's corrections): when set, the newest of
        /// them are used for each photo instead of `lessons`.
        public var liveLessons: LiveLessons?

        /// Options for the model at `modelPath` with the labels at `labelsPath`. The crop is the
        /// camera's, so a picture gets the same answer from a file as from a camera.
        public init(modelPath: String, labelsPath: String, runtime: Interpreter.Options, normalization: Normalization? = nil,
                    crop: CropMode = .center, verdictPolicy: VerdictPolicy = VerdictPolicy(checks: .classifyDefault),
                    secondOpinion: SecondOpinion.Options? = nil) {
            self.modelPath = modelPath
            self.labelsPath = labelsPath
            self.runtime = runtime
            self.normalization = normalization
            self.crop = crop
            self.verdictPolicy = verdictPolicy
            self.secondOpinion = secondOpinion
        }
    }

    public let options: Options

    /// Loads LiteRT and the model, checks the labels against the model's output, and
    /// prepares the quantiser, decoder and resizer for the model's input.
    /// - Throws: `ClassifierSetupError.runtime` when LiteRT or the model cannot be used,
    ///   `.labels` when the label file cannot be read or does not match the model.
    public init(options: Options) throws(ClassifierSetupError) {
        self.options = options
        do {
            interpreter = try Interpreter(modelPath: options.modelPath, options: options.runtime, pooledFeature: options.readsFeatures)
        } catch {
            throw .runtime(error)
        }
        do {
            labels = try Labels.load(path: options.labelsPath)
            try labels.check(againstClassCount: interpreter.output.elementCount, path: options.labelsPath)
        } catch {
            throw .labels(error)
        }
        quantizer = InputQuantizer(tensor: interpreter.input, normalization: options.normalization)
        let size = interpreter.inputSize
        decoder = ImageDecoder(minimumSize: (size.width, size.height))
        resizer = RowResizer(width: size.width, height: size.height, crop: options.crop)
        resizer.keepsTensorRows = true
        (secondOpinion, secondOpinionProblem) = Self.loadSecondOpinion(options)
        lessonsProblem = options.lessons.flatMap(problem(with:))
    }

    /// Why `lessons` cannot be compared with this model's features; nil when they can.
    private func problem(with lessons: TaughtClasses) -> String? {
        if featureSignature == nil {
            return "\(options.modelPath) has no pooled feature vector to compare with the lessons: they are not used"
        } else if let taughtWith = lessons.model, taughtWith != featureSignature {
            return "the lessons were taught with another model (\(taughtWith)): they are not used with \(options.modelPath)"
        }
        return nil
    }

    /// The generalist check's model and reference when the policy runs the check: either, or why not.
    private static func loadSecondOpinion(_ options: Options) -> (SecondOpinion?, SecondOpinionError?) {
        guard options.verdictPolicy.checks.contains(.generalist) else { return (nil, nil) }
        guard let secondOpinion = options.secondOpinion else { return (nil, .notConfigured) }
        do {
            return (try SecondOpinion(options: secondOpinion, runtime: options.runtime), nil)
        } catch {
            return (nil, error)
        }
    }

    /// The picture the model read last, cropped and resized to its input: what serve keeps of
    /// an upload with --keep-upload-photos, never the file itself. Nil before the first input.
    public var modelInput: RGBImage? { inputImage }

    /// What tells one model's features from another's: the pooled tensor's name and length and the
    /// model's class count. Lessons taught with another model are not compared with these.
    public var featureSignature: String? {
        interpreter.feature.map { "\($0.name) \($0.elementCount) \(interpreter.output.elementCount)" }
    }

    /// Why the lessons in the options are not used (taught with another model, or this one has no
    /// features); nil when they are used or there are none.
    public private(set) var lessonsProblem: String?

    /// How many values the model's pooled feature vector has; nil when features were not asked
    /// for or the model has no pooled vector PlantLeaf can read.
    public var featureCount: Int? { interpreter.feature?.elementCount }

    /// The model's input image size.
    public var inputSize: (width: Int, height: Int) { interpreter.inputSize }
    public var inputTensor: TensorInfo { interpreter.input }

    /// Runs the model once on the input prepared last with LiteRT's per-op profiler recording:
    /// the invoke's time and its ops. Needs `options.runtime.profiling`.
    /// - Throws: `RuntimeError` when the profiler or the invoke fails.
    public func profiledInvoke() throws(RuntimeError) -> (milliseconds: Double, ops: [OperatorEvent]) {
        try interpreter.startProfiling()
        let start = MonotonicClock.nanoseconds()
        try interpreter.invoke()
        let milliseconds = MonotonicClock.milliseconds(since: start)
        return (milliseconds, try interpreter.stopProfiling())
    }

    /// Reads, decodes and classifies one image file (PNG or JPEG).
    /// - Throws: `ClassifyError`, naming the file: unreadable, undecodable, or a runtime failure.
    public func classify(path: String) throws(ClassifyError) -> Classification {
        let start = MonotonicClock.nanoseconds()
        let bytes: [UInt8]
        do {
            bytes = try FileReader.readAll(path: path)
        } catch {
            throw .unreadable(path: path, reason: error)
        }
        let readTime = MonotonicClock.milliseconds(since: start)
        do {
            var result = try classify(bytes: bytes)
            result.timings.read = readTime
            return result
        } catch {
            switch error {
            case .unusable(let error): throw .undecodable(path: path, error)
            case .runtime(let error): throw .runtime(path: path, error)
            }
        }
    }

    /// Classifies an encoded PNG or JPEG.
    ///
    /// - Throws: `InputError.unusable` when the bytes are not an image it can decode,
    ///   `.runtime` when LiteRT fails.
    public func classify(bytes: [UInt8]) throws(InputError<ImageError>) -> Classification {
        let prepared = try prepareInput(bytes: bytes)
        do {
            return try run(timings: prepared.timings)
        } catch {
            throw .runtime(error)
        }
    }

    /// Decodes an encoded PNG or JPEG into the input tensor: rows go from the decoder through
    /// the resizer and are quantised into the tensor as they come, so no full-size image, and no
    /// model-size copy either, is ever held.
    ///
    /// - Throws: `InputError.unusable` with the decoder's `ImageError`, `.runtime` when the
    ///   input tensor cannot be written.
    public func prepareInput(bytes: [UInt8]) throws(InputError<ImageError>) -> PreparedInput {
        let start = MonotonicClock.nanoseconds()
        let decoded: Result<DecodedFile, ImageError>
        do {
            decoded = try interpreter.writeInput { tensor in
                resizer.writing(into: tensor, with: quantizer) { () -> Result<DecodedFile, ImageError> in
                    do throws(ImageError) {
                        return .success(try decoder.decode(bytes, into: resizer))
                    } catch {
                        return .failure(error)
                    }
                }
            }
        } catch {
            throw .runtime(error)
        }
        let file: DecodedFile
        switch decoded {
        case .success(let decodedFile): file = decodedFile
        case .failure(let failure): throw .unusable(failure)
        }
        noteResizedInput(jpegQuality: file.jpegQuality)
        let plan = resizer.plan!
        return PreparedInput(sourceWidth: plan.sourceWidth, sourceHeight: plan.sourceHeight, picture: inputPicture,
                             timings: StageTimings(prepare: MonotonicClock.milliseconds(since: start)))
    }

    /// Classifies a decoded image of any size (resized to the model's input here).
    ///
    /// - Throws: `RuntimeError` when LiteRT fails.
    public func classify(image: RGBImage) throws(RuntimeError) -> Classification {
        try run(timings: prepareInput(image: image).timings)
    }

    /// Resizes a decoded image into the input tensor, with a plan kept per source size.
    ///
    /// - Throws: `RuntimeError` when the input tensor cannot be written.
    public func prepareInput(image: RGBImage) throws(RuntimeError) -> PreparedInput {
        let start = MonotonicClock.nanoseconds()
        try interpreter.writeInput { tensor in
            resizer.writing(into: tensor, with: quantizer) {
                _ = resizer.begin(width: image.width, height: image.height, orientation: .upright)
                image.pixels.withUnsafeBufferPointer { pixels in
                    for y in 0..<image.height { resizer.row(pixels.baseAddress! + y * image.width * 3, y: y) }
                }
            }
        }
        noteResizedInput(jpegQuality: nil)
        return PreparedInput(sourceWidth: image.width, sourceHeight: image.height, picture: inputPicture,
                             timings: StageTimings(prepare: MonotonicClock.milliseconds(since: start)))
    }

    /// A converter for camera frames of `stream` to this model's input.
    public func frameConverter(for stream: StreamFormat, crop: CropMode) -> FrameConverter {
        let size = inputSize
        return FrameConverter(stream: stream, crop: crop, outputSize: FrameSize(width: size.width, height: size.height))
    }

    /// Converts one camera frame into the input tensor; returns the model-size image it wrote
    /// (for saving frames). A frame that does not convert is an error, never an empty input.
    ///
    /// - Throws: `InputError.unusable` with the converter's `FrameError`, `.runtime` when the
    ///   input tensor cannot be written.
    public func prepareInput(frame: [UInt8], with converter: FrameConverter) throws(InputError<FrameError>) -> (image: RGBImage, input: PreparedInput) {
        let start = MonotonicClock.nanoseconds()
        let image: RGBImage
        do {
            image = try converter.convert(frame)
        } catch {
            throw .unusable(error)
        }
        do {
            try writeInput(image)
        } catch {
            throw .runtime(error)
        }
        (readSide, readShare, jpegQuality) = (nil, 1, nil)
        let stream = converter.stream.size
        return (image, PreparedInput(sourceWidth: stream.width, sourceHeight: stream.height, picture: inputPicture,
                                     timings: StageTimings(prepare: MonotonicClock.milliseconds(since: start))))
    }

    /// Quantises an image already at the model's input size into the input tensor, and takes
    /// the verdict's readings of it.
    private func writeInput(_ image: RGBImage) throws(RuntimeError) {
        // The pixel buffer is opened inside the tensor's closure, not around it: Swift 6.0's
        // withUnsafeBufferPointer only rethrows untyped errors, so no typed throw may cross it.
        try interpreter.writeInput { tensor in
            image.pixels.withUnsafeBufferPointer { quantizer.write($0, into: tensor) }
        }
        inputPicture = PictureStatistics(image: image)
        inputImage = image
    }

    /// Takes what the resizer read of the source it just wrote into the input tensor.
    private func noteResizedInput(jpegQuality: Int?) {
        inputPicture = resizer.picture
        inputImage = resizer.finish()
        readSide = resizer.plan.map { min($0.sourceWidth, $0.sourceHeight) }
        readShare = resizer.readShare
        self.jpegQuality = jpegQuality
    }

    /// Runs the model on what the last prepareInput put in the input tensor, scores the result
    /// (the options' `classesPerResult` best classes) and decides its verdict with the options'
    /// policy; `timings` carries the stages already spent on this input. With the mirror check
    /// the input tensor is left mirrored: prepare the next input before running again.
    ///
    /// - Parameter history: for a camera, its readings so far (`Classification.picture` of each):
    ///   a frame repeating the same picture for the policy's `unchangedReadings` is `no-picture`.
    /// - Parameter verdictPolicy: the policy for this input when it is not the options' (a camera
    ///   sharing instances made for uploads); the generalist check runs only where the options'
    ///   policy loaded its model.
    /// - Throws: `RuntimeError` when LiteRT's invoke or output read fails.
    public func run(timings: StageTimings = StageTimings(),
                    history: PictureHistory? = nil, verdictPolicy: VerdictPolicy? = nil) throws(RuntimeError) -> Classification {
        let invokeStart = MonotonicClock.nanoseconds()
        try interpreter.invoke()
        var invoke = MonotonicClock.milliseconds(since: invokeStart)
        let postStart = MonotonicClock.nanoseconds()
        let top = try readTop(options.classesPerResult)
        // Before the mirror check's invoke overwrites it.
        let features = try interpreter.readFeature()
        var postprocess = MonotonicClock.milliseconds(since: postStart)
        let policy = verdictPolicy ?? options.verdictPolicy
        var mirrored: ScoredClass?
        if policy.checks.contains(.mirror) {
            let mirrorStart = MonotonicClock.nanoseconds()
            try mirrorInput()
            try interpreter.invoke()
            invoke += MonotonicClock.milliseconds(since: mirrorStart)
            let mirroredPostStart = MonotonicClock.nanoseconds()
            mirrored = try readTop(1).first
            postprocess += MonotonicClock.milliseconds(since: mirroredPostStart)
        }
        let generalistStart = MonotonicClock.nanoseconds()
        let opinion = try secondOpinionReading(policy)
        let generalist = policy.checks.contains(.generalist) ? MonotonicClock.milliseconds(since: generalistStart) : 0
        let readingsStart = MonotonicClock.nanoseconds()
        var judgement = Judgement(verdict: .uncertain, reason: .lowScore)
        if let best = top.first {
            var readings = pictureReadings(top: best, mirrored: mirrored, history: history, leafLikeness: opinion.leafLikeness, policy: policy)
            // Noise is looked for in every picture: random noise can be green enough and, to a
            // small generalist, leaf-like enough to pass the other checks; the reading costs a
            // pass over every fourth row of the model-size picture.
            if policy.checks.contains(.picture), let inputImage {
                readings.neighbourContrast = NeighbourContrast.ratio(of: inputImage, spread: inputPicture.luminanceSpread)
            }
            judgement = policy.judge(readings)
        }
        postprocess += MonotonicClock.milliseconds(since: readingsStart)
        var timings = timings
        timings.invoke = invoke
        timings.postprocess = postprocess
        timings.generalist = generalist
        var result = Classification(top: top, verdict: judgement.verdict, reason: judgement.reason, secondOpinion: opinion,
                                    picture: inputPicture, timings: timings)
        result.features = features
        if let live = options.liveLessons {
            if let lessons = live.lessons, problem(with: lessons) == nil, let features { Self.consult(lessons, features: features, policy: policy, result: &result) }
        } else if lessonsProblem == nil, let lessons = options.lessons, let features {
            Self.consult(lessons, features: features, policy: policy, result: &result)
        }
        return result
    }

    /// The lessons' say on a result: a photo close to a taught class is a leaf of that crop,
    /// whatever the colour or generalist checks doubted (a brown diseased leaf, a leaf on paper),
    /// when it is close enough to overrule them (`TaughtClasses.doubtedLeafSimilarity`), but a
    /// picture with no content stays `no-picture`; between two close taught classes it is
    /// `uncertain`. Far from every lesson, the model's answer and verdict stand.
    static func consult(_ lessons: TaughtClasses, features: [Float], policy: VerdictPolicy, result: inout Classification) {
        guard let match = lessons.match(features) else { return }
        result.taught = match
        guard match.wins, result.verdict != .noPicture else { return }
        let doubted = result.verdict != .diagnosis
        guard !doubted || match.similarity >= TaughtClasses.doubtedLeafSimilarity else { return }
        result.source = .lessons
        if match.closeToAnother {
            (result.verdict, result.reason) = (.uncertain, .closeTaughtClasses)
        } else {
            (result.verdict, result.reason) = (.diagnosis, nil)
        }
    }

    /// The generalist's view of the last input, when the policy runs its check.
    private func secondOpinionReading(_ policy: VerdictPolicy) throws(RuntimeError) -> SecondOpinionReading {
        guard policy.checks.contains(.generalist) else { return .notRun }
        guard let secondOpinion, let inputImage else {
            return .skipped(reason: (secondOpinionProblem ?? SecondOpinionError.notConfigured).description)
        }
        guard let likeness = try secondOpinion.likeness(of: inputImage).likeness else {
            return .skipped(reason: SecondOpinionError.notConfigured.description)
        }
        return .leafLikeness(likeness)
    }

    /// The verdict's readings of the last input: its statistics, and what the checks that read
    /// the model-size picture again need of it.
    private func pictureReadings(top: ScoredClass, mirrored: ScoredClass?, history: PictureHistory?,
                                 leafLikeness: Double?, policy: VerdictPolicy) -> VerdictReadings {
        var readings = VerdictReadings(picture: inputPicture, top: top, mirrored: mirrored, history: history, leafLikeness: leafLikeness,
                                       readSide: readSide, readShare: readShare, jpegQuality: jpegQuality)
        guard policy.checks.contains(.vegetation), let inputImage else { return readings }
        // Balanced only when raw colour finds too little green: a leaf under a grow light.
        var gains = ChannelGains.identity
        if inputPicture.greenShare < policy.minimumGreenShare {
            gains = WhiteBalance.gains(of: inputImage)
            readings.balancedGreenShare = WhiteBalance.greenShare(of: inputImage, gains: gains)
        }
        readings.edges = SceneEdges(image: inputImage, gains: gains)
        return readings
    }

    /// The output's `count` best classes.
    private func readTop(_ count: Int) throws(RuntimeError) -> [ScoredClass] {
        let output = interpreter.output
        let scores = try interpreter.readOutput { Scores.dequantize($0, tensor: output) }
        return Scores.topK(scores, k: count, labels: labels)
    }

    /// Mirrors the filled input tensor left to right in place, pixel for pixel within each row:
    /// the mirror check's second look at the same pixels, with no second decode or resize.
    private func mirrorInput() throws(RuntimeError) {
        let (width, height) = inputSize
        let pixelBytes = 3 * quantizer.bytesPerValue
        try interpreter.writeInput { tensor in
            let base = tensor.baseAddress!
            // Byte by byte: a pixel is 3 to 12 bytes, too few for a memory copy's call to pay.
            for y in 0..<height {
                let row = base + y * width * pixelBytes
                for x in 0..<(width / 2) {
                    let left = row + x * pixelBytes, right = row + (width - 1 - x) * pixelBytes
                    for byte in 0..<pixelBytes {
                        let leftByte = left.load(fromByteOffset: byte, as: UInt8.self)
                        left.storeBytes(of: right.load(fromByteOffset: byte, as: UInt8.self), toByteOffset: byte, as: UInt8.self)
                        right.storeBytes(of: leftByte, toByteOffset: byte, as: UInt8.self)
                    }
                }
            }
        }
    }
}
