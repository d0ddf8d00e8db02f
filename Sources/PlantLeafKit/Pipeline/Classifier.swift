/// Milliseconds spent in each pipeline stage for one image.
public struct StageTimings: Sendable, Equatable {
    /// Reading the file and decoding it to RGB (with EXIF orientation).
    public var decode: Double = 0
    /// Resizing to the model's input and quantising into the input tensor.
    public var preprocess: Double = 0
    public var invoke: Double = 0
    /// Dequantising the output and picking the top classes.
    public var postprocess: Double = 0

    public init(decode: Double = 0, preprocess: Double = 0, invoke: Double = 0, postprocess: Double = 0) {
        self.decode = decode
        self.preprocess = preprocess
        self.invoke = invoke
        self.postprocess = postprocess
    }

    public var total: Double { decode + preprocess + invoke + postprocess }
}

public struct Classification: Sendable {
    public var top: [ScoredClass]
    public var timings: StageTimings
}

/// Why the classifier could not be set up: the runtime/model, or the label file.
public enum ClassifierSetupError: Error, Equatable, CustomStringConvertible {
    case runtime(RuntimeError)
    case labels(LabelError)

    public var description: String {
        switch self {
        case .runtime(let error): return error.description
        case .labels(let error): return error.description
        }
    }
}

/// Why one file could not be classified; says which file.
public enum ClassifyError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case undecodable(path: String, ImageError)
    case runtime(path: String, RuntimeError)

    public var path: String {
        switch self {
        case .unreadable(let path, _), .undecodable(let path, _), .runtime(let path, _): return path
        }
    }

    /// The reason without the path, for output formats that carry the path separately.
    public var reason: String {
        switch self {
        case .unreadable(_, let reason): return "cannot read file: \(reason)"
        case .undecodable(_, let error): return error.description
        case .runtime(_, let error): return error.description
        }
    }

    public var description: String { "\(path): \(reason)" }
}

/// The whole classify path: file → RGB → model input → LiteRT → top-k classes.
public final class Classifier {
    public let interpreter: Interpreter
    public let labels: Labels
    public let quantizer: InputQuantizer
    public let decoder: ImageDecoder
    /// The last resize plan: a batch is mostly one photo size, so the weights are reused.
    private var resizePlan: ResizePlan?

    public init(modelPath: String, labelsPath: String, threads: Int = 1,
                normalization: Normalization? = nil) throws(ClassifierSetupError) {
        do {
            interpreter = try Interpreter(modelPath: modelPath, threads: threads)
        } catch {
            throw .runtime(error)
        }
        do {
            labels = try Labels.load(path: labelsPath)
            try labels.check(againstClassCount: interpreter.output.elementCount, path: labelsPath)
        } catch {
            throw .labels(error)
        }
        quantizer = InputQuantizer(tensor: interpreter.input, normalization: normalization)
        let size = interpreter.inputSize
        decoder = ImageDecoder(minimumSize: (size.width, size.height))
    }

    public func classify(path: String, topK: Int) throws(ClassifyError) -> Classification {
        let start = MonotonicClock.nanoseconds()
        let bytes: [UInt8]
        do {
            bytes = try FileReader.readAll(path: path)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        let image: RGBImage
        do {
            image = try decoder.decode(bytes)
        } catch {
            throw .undecodable(path: path, error)
        }
        let decodeTime = MonotonicClock.milliseconds(since: start)
        do {
            var result = try classify(image: image, topK: topK)
            result.timings.decode = decodeTime
            return result
        } catch {
            throw .runtime(path: path, error)
        }
    }

    /// Classifies a decoded image of any size (resized to the model's input here).
    public func classify(image: RGBImage, topK: Int) throws(RuntimeError) -> Classification {
        let start = MonotonicClock.nanoseconds()
        let size = interpreter.inputSize
        if resizePlan?.fits(image) != true {
            resizePlan = ResizePlan(sourceWidth: image.width, sourceHeight: image.height, width: size.width, height: size.height)
        }
        let resized = resizePlan!.resize(image)
        try writeInput(resized)
        let preprocess = MonotonicClock.milliseconds(since: start)
        return try run(topK: topK, preprocess: preprocess)
    }

    /// Quantises an image already at the model's input size into the input tensor.
    public func writeInput(_ image: RGBImage) throws(RuntimeError) {
        // The pixel buffer is opened inside the tensor's closure, not around it: Swift 6.0's
        // withUnsafeBufferPointer only rethrows untyped errors, so no typed throw may cross it.
        try interpreter.writeInput { tensor in
            image.pixels.withUnsafeBufferPointer { quantizer.write($0, into: tensor) }
        }
    }

    /// Runs the model on what is already in the input tensor and scores the result.
    public func run(topK: Int, preprocess: Double = 0) throws(RuntimeError) -> Classification {
        let invokeStart = MonotonicClock.nanoseconds()
        try interpreter.invoke()
        let invoke = MonotonicClock.milliseconds(since: invokeStart)
        let postStart = MonotonicClock.nanoseconds()
        let output = interpreter.output
        let scores = try interpreter.readOutput { Scores.dequantize($0, tensor: output) }
        let top = Scores.topK(scores, k: topK, labels: labels)
        let postprocess = MonotonicClock.milliseconds(since: postStart)
        return Classification(top: top, timings: StageTimings(preprocess: preprocess, invoke: invoke, postprocess: postprocess))
    }
}
