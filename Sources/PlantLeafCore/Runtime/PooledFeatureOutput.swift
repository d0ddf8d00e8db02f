/// The last global pool of an image classifier (MobileNetV2's `Mean`, MobileNetV1's `AvgPool`):
/// the feature vector its dense layers read, and what a grower's lessons are compared by. The
/// model does not output it, so the process's own copy of the model is given a second output,
/// that tensor, and one invoke then yields the scores and the features together.
///
/// Field numbers are the `id`s of tensorflow/lite/schema/schema.fbs, as in `ModelStructure`,
/// which has checked the file before this reads it.
struct PooledFeatureOutput {
    /// Where the subgraph's `outputs` field (an offset to its vector) is stored.
    let outputsFieldPosition: Int
    /// The subgraph's outputs as the file has them; the pooled tensor goes after them.
    let outputs: [Int32]
    let tensorIndex: Int32
    /// The pooled tensor's name, how the compiled model's outputs are told apart.
    let tensorName: String

    private static let averagePool = 1
    private static let mean = 40

    /// The pool whose output the model's last pooling op writes, when it is a vector per image
    /// ([1, C] or [1, 1, 1, C]); nil when the first subgraph has none, already outputs it, or has
    /// more outputs than the scores (PlantLeaf reads models with one).
    static func find(in bytes: UnsafeRawBufferPointer) throws(FlatBufferReader.Damage) -> PooledFeatureOutput? {
        var reader = FlatBufferReader(bytes: bytes)
        let model = try reader.table(at: try reader.follow(at: 0, "root table offset"), "model")
        let codes = try reader.builtinOperatorCodes(of: model)
        guard let subgraph = try reader.tables(2, of: model, "subgraphs").first,
              let outputsField = try reader.field(2, of: subgraph, width: 4, "outputs"),
              let outputList = try reader.vector(2, of: subgraph, elementWidth: 4, "outputs") else { return nil }
        let tensors = try reader.tables(0, of: subgraph, "tensors")
        var outputs: [Int32] = []
        for element in 0..<outputList.count {
            outputs.append(Int32(truncatingIfNeeded: try reader.unsigned(at: outputList.position(of: element), width: 4, "outputs")))
        }
        var pooled: Int32?
        for op in try reader.tables(3, of: subgraph, "operators") {
            let code = Int(try reader.scalar(0, of: op, width: 4, "opcode_index") ?? 0)
            guard codes.indices.contains(code), codes[code] == averagePool || codes[code] == mean,
                  let list = try reader.vector(2, of: op, elementWidth: 4, "operator outputs"), list.count == 1 else { continue }
            let index = Int32(truncatingIfNeeded: try reader.unsigned(at: list.start, width: 4, "operator outputs"))
            guard tensors.indices.contains(Int(index)), let shape = try reader.vector(0, of: tensors[Int(index)], elementWidth: 4, "shape"),
                  shape.count >= 2 else { continue }
            var dimensions: [Int] = []
            for element in 0..<shape.count {
                dimensions.append(Int(Int32(truncatingIfNeeded: try reader.unsigned(at: shape.position(of: element), width: 4, "shape"))))
            }
            if dimensions.dropLast().allSatisfy({ $0 == 1 }), let channels = dimensions.last, channels > 1 { pooled = index }
        }
        guard let pooled, outputs.count == 1, !outputs.contains(pooled),
              let nameVector = try reader.vector(3, of: tensors[Int(pooled)], elementWidth: 1, "tensor name") else { return nil }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[nameVector.start..<(nameVector.start + nameVector.count)]),
                          as: UTF8.self)
        return PooledFeatureOutput(outputsFieldPosition: outputsField, outputs: outputs, tensorIndex: pooled, tensorName: name)
    }

    /// The bytes of the new outputs vector (its length, then the indices), little-endian.
    var newOutputsVector: [UInt8] {
        var bytes: [UInt8] = []
        for value in [Int32(outputs.count + 1)] + outputs + [tensorIndex] {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }
}
