/// One op of one invoke, as LiteRT's profiler timed it.
public struct OperatorEvent: Sendable, Equatable {
    /// The kernel's name: XNNPACK's for the ops it runs (e.g. "Convolution (NHWC, QC8) IGEMM"),
    /// the TFLite op's for the rest (e.g. "SOFTMAX").
    public var name: String
    /// The op's node index in the graph that ran it: XNNPACK's own graph when `delegated`,
    /// else the model's (the two number their nodes independently).
    public var node: Int
    /// Run inside XNNPACK rather than by the TFLite interpreter's own kernel.
    public var delegated: Bool
    /// The profiler's resolution is a microsecond.
    public var microseconds: Double

    public init(name: String, node: Int, delegated: Bool, microseconds: Double) {
        self.name = name
        self.node = node
        self.delegated = delegated
        self.microseconds = microseconds
    }
}
