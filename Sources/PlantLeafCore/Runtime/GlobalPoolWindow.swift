/// MobileNet's TensorFlow Lite files end in an AVERAGE_POOL_2D whose window is the last feature
/// map's size at the model's own input (7×7 at 224): a global pool written as a fixed one. At a
/// smaller input the feature map shrinks (5×5 at 160) and the window no longer fits, so XNNPACK
/// refuses the graph ("failed to prepare"). These are the windows to set to the new map's size.
///
/// Field numbers are the `id`s of tensorflow/lite/schema/schema.fbs, as in `ModelStructure`,
/// which has checked the file before this reads it.
struct GlobalPoolWindow {
    /// Where the window's width and height (32-bit integers) are stored in the file.
    let widthPosition: Int
    let heightPosition: Int
    /// The pool's input side at the model's own input size, and that input's side.
    let featureSide: Int
    let modelInputSide: Int

    /// The window for a square input of `inputSide`: the feature map's side then, each stride-2
    /// stage with SAME padding rounding up.
    func side(forInputSide inputSide: Int) -> Int {
        let stride = max(1, modelInputSide / featureSide)
        return (inputSide + stride - 1) / stride
    }

    private static let averagePool = 1
    private static let validPadding = 1

    /// The global average pools of the first subgraph of a square-input model: windows of VALID
    /// padding as large as their input.
    static func find(in bytes: UnsafeRawBufferPointer) throws(FlatBufferReader.Damage) -> [GlobalPoolWindow] {
        var reader = FlatBufferReader(bytes: bytes)
        let model = try reader.table(at: try reader.follow(at: 0, "root table offset"), "model")
        let codes = try reader.builtinOperatorCodes(of: model)
        guard let subgraph = try reader.tables(2, of: model, "subgraphs").first else { return [] }
        let tensors = try reader.tables(0, of: subgraph, "tensors")
        func shape(_ index: Int) throws(FlatBufferReader.Damage) -> [Int] {
            guard tensors.indices.contains(index), let list = try reader.vector(0, of: tensors[index], elementWidth: 4, "shape") else { return [] }
            var shape: [Int] = []
            for element in 0..<list.count {
                shape.append(Int(Int32(truncatingIfNeeded: try reader.unsigned(at: list.position(of: element), width: 4, "shape"))))
            }
            return shape
        }
        func firstIndex(_ id: Int, of table: FlatBufferReader.Table) throws(FlatBufferReader.Damage) -> Int {
            guard let list = try reader.vector(id, of: table, elementWidth: 4, "indices"), list.count > 0 else { return -1 }
            return Int(Int32(truncatingIfNeeded: try reader.unsigned(at: list.start, width: 4, "indices")))
        }
        let input = try shape(try firstIndex(1, of: subgraph))
        guard input.count == 4, input[1] == input[2] else { return [] }
        var windows: [GlobalPoolWindow] = []
        for op in try reader.tables(3, of: subgraph, "operators") {
            let code = Int(try reader.scalar(0, of: op, width: 4, "opcode_index") ?? 0)
            guard codes.indices.contains(code), codes[code] == averagePool,
                  let optionsField = try reader.field(4, of: op, width: 4, "builtin_options") else { continue }
            let options = try reader.table(at: try reader.follow(at: optionsField, "builtin_options"), "builtin_options")
            let poolInput = try shape(try firstIndex(1, of: op))
            guard poolInput.count == 4, poolInput[1] == poolInput[2],
                  try reader.scalar(0, of: options, width: 1, "padding") == UInt64(validPadding),
                  let width = try reader.field(3, of: options, width: 4, "filter_width"),
                  let height = try reader.field(4, of: options, width: 4, "filter_height"),
                  try reader.unsigned(at: width, width: 4, "filter_width") == UInt64(poolInput[2]),
                  try reader.unsigned(at: height, width: 4, "filter_height") == UInt64(poolInput[1]) else { continue }
            windows.append(GlobalPoolWindow(widthPosition: width, heightPosition: height, featureSide: poolInput[1], modelInputSide: input[1]))
        }
        return windows
    }
}
