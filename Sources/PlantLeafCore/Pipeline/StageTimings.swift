/// Milliseconds spent in each pipeline stage for one image or frame. The same names are used in
/// every output (classify's JSON and CSV, camera records, bench reports).
public struct StageTimings: Sendable, Equatable {
    /// Reading the file (0 for bytes already in memory and for camera frames).
    public var read: Double = 0
    /// From the encoded bytes or the frame to a filled input tensor: decoding, with the rows
    /// resized and quantised into the tensor as they come (and the verdict's picture readings
    /// taken from them).
    public var prepare: Double = 0
    /// The model run; with the mirror check, both runs and the mirroring between them.
    public var invoke: Double = 0
    /// Dequantising the output and picking the top classes, and the verdict's readings of the
    /// model-size picture (edges, colour balance).
    public var postprocess: Double = 0
    /// The generalist model's run on the same picture and its comparison with the leaf
    /// reference (the generalist check); 0 when it does not run.
    public var generalist: Double = 0

    /// Timings of the stages given; the others are 0.
    public init(read: Double = 0, prepare: Double = 0, invoke: Double = 0, postprocess: Double = 0, generalist: Double = 0) {
        self.read = read
        self.prepare = prepare
        self.invoke = invoke
        self.postprocess = postprocess
        self.generalist = generalist
    }

    public var total: Double { read + prepare + invoke + postprocess + generalist }
}
