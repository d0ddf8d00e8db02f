import PlantLeafSupport

/// The generalist second opinion: an ImageNet model that knows birds, food, people, vehicles and
/// textures looks at the same model-size picture the leaf model saw, and its output distribution
/// is compared with what it gives leaf photos (`LeafReference`). The leaf model names one of its
/// 38 classes for anything, often with a high score; the generalist tells a bird among foliage or a
/// printed pattern from a leaf.
public final class SecondOpinion {
    /// The generalist model and the reference it is compared with.
    public struct Options: Sendable, Equatable {
        public var modelPath: String
        /// nil: the distribution is measured but there is nothing to compare it with (calibrate).
        public var referencePath: String?
        /// The side of the square picture the generalist runs on, its input resized to it; nil
        /// for the model's own (224). The reference must have been made at the same side.
        public var inputSide: Int?

        public init(modelPath: String, referencePath: String?, inputSide: Int? = nil) {
            self.modelPath = modelPath
            self.referencePath = referencePath
            self.inputSide = inputSide
        }
    }

    private let interpreter: Interpreter
    private let quantizer: InputQuantizer
    /// Resizes pictures of another size than the generalist's input (a leaf model with another
    /// input size, or the generalist run at a smaller one).
    private let resizer: RowResizer
    public let reference: LeafReference?
    public let options: Options

    /// Loads the generalist model and, when the options name one, its leaf reference.
    /// - Throws: `SecondOpinionError` naming the model or the reference file.
    public init(options: Options, runtime: Interpreter.Options) throws(SecondOpinionError) {
        self.options = options
        do {
            interpreter = try Interpreter(modelPath: options.modelPath, options: runtime, inputSide: options.inputSide)
        } catch {
            throw .model(error)
        }
        quantizer = InputQuantizer(tensor: interpreter.input)
        let size = interpreter.inputSize
        resizer = RowResizer(width: size.width, height: size.height)
        if let path = options.referencePath {
            do {
                reference = try LeafReference.load(path: path, expectedClasses: interpreter.output.elementCount,
                                                   inputSide: interpreter.inputSize.width,
                                                   generalist: Self.generalist(path: options.modelPath, byteCount: interpreter.modelByteCount))
            } catch {
                throw .reference(error)
            }
        } else {
            reference = nil
        }
    }

    /// The generalist's output for `image` (any size: resized to its input), as probabilities
    /// summing to 1. Returns the invoke's time in ms too.
    /// - Throws: `RuntimeError` when LiteRT fails.
    public func distribution(of image: RGBImage) throws(RuntimeError) -> (distribution: [Double], invokeMilliseconds: Double) {
        let size = interpreter.inputSize
        let input = image.width == size.width && image.height == size.height ? image : resized(image)
        try interpreter.writeInput { tensor in
            input.pixels.withUnsafeBufferPointer { quantizer.write($0, into: tensor) }
        }
        let start = MonotonicClock.nanoseconds()
        try interpreter.invoke()
        let invoke = MonotonicClock.milliseconds(since: start)
        let output = interpreter.output
        let scores = try interpreter.readOutput { Scores.dequantize($0, tensor: output) }
        let total = scores.reduce(0) { $0 + max($1, 0) }
        return (scores.map { total > 0 ? max($0, 0) / total : 0 }, invoke)
    }

    /// How like the reference's leaf photos `image` looks to the generalist, 0...1 (the
    /// Bhattacharyya coefficient of the two distributions); nil without a reference.
    /// - Throws: `RuntimeError` when LiteRT fails.
    public func likeness(of image: RGBImage) throws(RuntimeError) -> (likeness: Double?, invokeMilliseconds: Double) {
        let (distribution, invoke) = try distribution(of: image)
        return (reference?.likeness(distribution), invoke)
    }

    /// The generalist's output classes (1001 for ImageNet's, with background).
    public var classCount: Int { interpreter.output.elementCount }

    /// Which generalist model this is, as a leaf reference records it: the file's name and size
    /// ("mobilenet_v1_0.25_128_quant.tflite 525598"). Hashing the file would cost each start a
    /// pass over megabytes; name and size tell the candidate models apart, and a model replaced
    /// by another under the same name and size is not something set-up does.
    public var generalist: String { Self.generalist(path: options.modelPath, byteCount: interpreter.modelByteCount) }

    static func generalist(path: String, byteCount: Int) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return "\(name) \(byteCount)"
    }

    /// The side of the square picture the generalist runs on.
    public var inputSide: Int { interpreter.inputSize.width }

    private func resized(_ image: RGBImage) -> RGBImage {
        _ = resizer.begin(width: image.width, height: image.height, orientation: .upright)
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<image.height { resizer.row(pixels.baseAddress! + y * image.width * 3, y: y) }
        }
        return resizer.finish()
    }
}
