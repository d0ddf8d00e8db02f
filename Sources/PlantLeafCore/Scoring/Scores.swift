/// One class and its probability-like score.
public struct ScoredClass: Sendable, Equatable {
    public var index: Int
    public var label: String
    public var score: Double

    /// A class by its output index and name, with its dequantised score.
    public init(index: Int, label: String, score: Double) {
        self.index = index
        self.label = label
        self.score = score
    }
}

/// Reads the output tensor as real scores and picks the best classes.
public enum Scores {
    /// (q - zero_point) x scale for quantised outputs, the values themselves for float32.
    public static func dequantize(_ raw: UnsafeRawBufferPointer, tensor: TensorInfo) -> [Double] {
        let count = tensor.elementCount
        switch tensor.elementType {
        case .int8, .uint8:
            let quantization = tensor.quantization ?? Quantization(scale: 1, zeroPoint: 0)
            let scale = Double(quantization.scale)
            let zeroPoint = Double(quantization.zeroPoint)
            if tensor.elementType == .int8 {
                return (0..<count).map { (Double(raw.load(fromByteOffset: $0, as: Int8.self)) - zeroPoint) * scale }
            }
            return (0..<count).map { (Double(raw[$0]) - zeroPoint) * scale }
        default:
            return (0..<count).map { Double(raw.load(fromByteOffset: $0 * 4, as: Float.self)) }
        }
    }

    /// The k highest scores, best first; equal scores keep their class order (lower index first).
    public static func topK(_ scores: [Double], k: Int) -> [(index: Int, score: Double)] {
        var best: [(index: Int, score: Double)] = []
        best.reserveCapacity(k + 1)
        for (index, score) in scores.enumerated() where k > 0 {
            // Insert after every entry that is at least as good: ties stay in index order.
            if best.count == k, let last = best.last, score <= last.score { continue }
            var position = best.count
            while position > 0 && best[position - 1].score < score { position -= 1 }
            best.insert((index, score), at: position)
            if best.count > k { best.removeLast() }
        }
        return best
    }

    /// The `k` best classes with their names, best first (ties keep output order).
    public static func topK(_ scores: [Double], k: Int, labels: Labels) -> [ScoredClass] {
        topK(scores, k: k).map { ScoredClass(index: $0.index, label: labels[$0.index], score: $0.score) }
    }
}
