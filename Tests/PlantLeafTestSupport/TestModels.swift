/// Builds small flatbuffers the way the flatbuffers library lays them out: back to front, every
/// object placed before the ones it refers to, so offsets point forward. Enough for the tests
/// and the fuzz seeds to make TensorFlow Lite model files of any shape, valid or broken.
public struct FlatBufferBuilder {
    /// The buffer's tail, complete; new objects go in front of it.
    private var tail: [UInt8] = []

    /// An object already in the buffer, named by its distance from the buffer's end.
    public struct Reference {
        fileprivate let distanceFromEnd: Int
    }

    public enum Field {
        case uint8(UInt8)
        case int32(Int32)
        case uint32(UInt32)
        case object(Reference)
    }

    public init() {}

    /// Places `bytes` in front, padded behind so the object starts on a 4-byte boundary.
    private mutating func prepend(_ bytes: [UInt8]) -> Reference {
        let padding = (4 - (tail.count + bytes.count) % 4) % 4
        tail = bytes + [UInt8](repeating: 0, count: padding) + tail
        return Reference(distanceFromEnd: tail.count)
    }

    public mutating func vector(int32 values: [Int32]) -> Reference {
        prepend(littleEndian(UInt32(values.count)) + values.flatMap { littleEndian(UInt32(bitPattern: $0)) })
    }

    public mutating func vector(float values: [Float]) -> Reference {
        prepend(littleEndian(UInt32(values.count)) + values.flatMap { littleEndian($0.bitPattern) })
    }

    public mutating func vector(int64 values: [Int64]) -> Reference {
        prepend(littleEndian(UInt32(values.count)) + values.flatMap { littleEndian(UInt64(bitPattern: $0)) })
    }

    public mutating func string(_ text: String) -> Reference {
        prepend(littleEndian(UInt32(text.utf8.count)) + Array(text.utf8) + [0])
    }

    public mutating func vector(of references: [Reference]) -> Reference {
        let start = tail.count + 4 + 4 * references.count + (4 - (tail.count % 4)) % 4
        var bytes = littleEndian(UInt32(references.count))
        for (index, reference) in references.enumerated() {
            // Element i sits at distance (start - 4 - 4i) from the end; offsets count from where they are stored.
            bytes += littleEndian(UInt32(start - 4 - 4 * index - reference.distanceFromEnd))
        }
        return prepend(bytes)
    }

    /// A table of `fields` by schema id, every field in a 4-byte slot, its vtable just before it.
    public mutating func table(_ fields: [Int: Field]) -> Reference {
        let ids = fields.keys.sorted()
        let slots = (ids.last ?? -1) + 1
        let vtableSize = 4 + 2 * slots
        let vtablePadded = vtableSize + (4 - vtableSize % 4) % 4
        let tableSize = 4 + 4 * ids.count
        var vtable = littleEndian(UInt16(vtableSize)) + littleEndian(UInt16(tableSize))
        var table = littleEndian(UInt32(vtablePadded))  // soffset: the vtable is that far before the table
        let start = tail.count + vtablePadded + tableSize + (4 - (tail.count % 4)) % 4
        var slotOffsets = [UInt16](repeating: 0, count: slots)
        for (slot, id) in ids.enumerated() {
            slotOffsets[id] = UInt16(4 + 4 * slot)
            let fieldDistance = start - vtablePadded - 4 - 4 * slot
            switch fields[id]! {
            case .uint8(let value): table += [value, 0, 0, 0]
            case .int32(let value): table += littleEndian(UInt32(bitPattern: value))
            case .uint32(let value): table += littleEndian(value)
            case .object(let reference): table += littleEndian(UInt32(fieldDistance - reference.distanceFromEnd))
            }
        }
        vtable += slotOffsets.flatMap { littleEndian($0) }
        vtable += [UInt8](repeating: 0, count: vtablePadded - vtableSize)
        let placed = prepend(vtable + table)
        return Reference(distanceFromEnd: placed.distanceFromEnd - vtablePadded)
    }

    /// The finished buffer: root offset, 4-byte file identifier, then everything built.
    public mutating func finish(root: Reference, identifier: String) -> [UInt8] {
        let total = tail.count + 8
        return littleEndian(UInt32(total - root.distanceFromEnd)) + Array(identifier.utf8.prefix(4)) + tail
    }

    private func littleEndian<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
}

/// TensorFlow Lite model files made in memory (field ids from tensorflow/lite/schema/schema.fbs).
public enum TestModels {
    /// A one-operator model, sum = a + b on float [1, 2] tensors, with a quantised output and a
    /// signature: every kind of table, vector and string the model check follows.
    public static func addition() -> [UInt8] {
        var builder = FlatBufferBuilder()
        let buffers = builder.vector(of: (0..<4).map { _ in builder.table([:]) })
        let tensors = builder.vector(of: ["a", "b", "sum"].enumerated().map { index, name in
            var fields: [Int: FlatBufferBuilder.Field] = [
                0: .object(builder.vector(int32: [1, 2])), 1: .uint8(0), 2: .uint32(UInt32(index + 1)), 3: .object(builder.string(name)),
            ]
            if name == "sum" {
                fields[4] = .object(builder.table([2: .object(builder.vector(float: [0.5])), 3: .object(builder.vector(int64: [0]))]))
            }
            return builder.table(fields)
        })
        let add = builder.table([0: .uint32(0), 1: .object(builder.vector(int32: [0, 1])), 2: .object(builder.vector(int32: [2]))])
        let subgraph = builder.table([0: .object(tensors), 1: .object(builder.vector(int32: [0, 1])),
                                      2: .object(builder.vector(int32: [2])), 3: .object(builder.vector(of: [add])),
                                      4: .object(builder.string("main"))])
        let operatorCode = builder.table([0: .uint8(0), 2: .int32(1), 3: .int32(0)])
        let tensorMap = { (name: String, index: UInt32) in
            builder.table([0: .object(builder.string(name)), 1: .uint32(index)])
        }
        let signature = builder.table([0: .object(builder.vector(of: [tensorMap("a", 0), tensorMap("b", 1)])),
                                       1: .object(builder.vector(of: [tensorMap("sum", 2)])),
                                       2: .object(builder.string("serving_default")), 4: .uint32(0)])
        let model = builder.table([0: .uint32(3), 1: .object(builder.vector(of: [operatorCode])),
                                   2: .object(builder.vector(of: [subgraph])), 3: .object(builder.string("plantleaf test model")),
                                   4: .object(buffers), 7: .object(builder.vector(of: [signature]))])
        return builder.finish(root: model, identifier: "TFL3")
    }
}

/// One tensor of a model made by `TestModels.imageClassifier`.
public struct TestTensor: Sendable {
    /// TensorFlow Lite's TensorType codes (schema.fbs), not LiteRT's element types.
    public enum FileType: UInt8, Sendable {
        case float32 = 0
        case uint8 = 3
        case int8 = 9
    }

    public var name: String
    public var type: FileType
    public var shape: [Int32]
    public var quantization: (scale: Float, zeroPoint: Int64)?

    public init(_ name: String, _ type: FileType, _ shape: [Int32], quantization: (scale: Float, zeroPoint: Int64)? = nil) {
        self.name = name
        self.type = type
        self.shape = shape
        self.quantization = quantization
    }
}

extension TestModels {
    /// A model with one image input and the given outputs, each produced by a RESHAPE of the
    /// input, with a signature naming them all. PlantLeaf's load-time checks read only these
    /// declarations, so hostile quantisation, sizes or output counts can be tried without a
    /// model that would compute anything sensible.
    public static func imageClassifier(input: TestTensor, outputs: [TestTensor]) -> [UInt8] {
        var builder = FlatBufferBuilder()
        let all = [input] + outputs
        let buffers = builder.vector(of: (0...all.count).map { _ in builder.table([:]) })
        let tensors = builder.vector(of: all.enumerated().map { index, tensor in
            var fields: [Int: FlatBufferBuilder.Field] = [
                0: .object(builder.vector(int32: tensor.shape)), 1: .uint8(tensor.type.rawValue),
                2: .uint32(UInt32(index + 1)), 3: .object(builder.string(tensor.name)),
            ]
            if let quantization = tensor.quantization {
                fields[4] = .object(builder.table([2: .object(builder.vector(float: [quantization.scale])),
                                                   3: .object(builder.vector(int64: [quantization.zeroPoint]))]))
            }
            return builder.table(fields)
        })
        let outputIndices = (1...outputs.count).map { Int32($0) }
        let reshapes = outputIndices.map { output in
            builder.table([0: .uint32(0), 1: .object(builder.vector(int32: [0])), 2: .object(builder.vector(int32: [output]))])
        }
        let subgraph = builder.table([0: .object(tensors), 1: .object(builder.vector(int32: [0])),
                                      2: .object(builder.vector(int32: outputIndices)), 3: .object(builder.vector(of: reshapes)),
                                      4: .object(builder.string("main"))])
        // RESHAPE is builtin operator 22.
        let operatorCode = builder.table([0: .uint8(22), 2: .int32(1), 3: .int32(22)])
        let tensorMap = { (name: String, index: UInt32) in
            builder.table([0: .object(builder.string(name)), 1: .uint32(index)])
        }
        let signature = builder.table([0: .object(builder.vector(of: [tensorMap(input.name, 0)])),
                                       1: .object(builder.vector(of: outputs.enumerated().map { tensorMap($1.name, UInt32($0 + 1)) })),
                                       2: .object(builder.string("serving_default")), 4: .uint32(0)])
        let model = builder.table([0: .uint32(3), 1: .object(builder.vector(of: [operatorCode])),
                                   2: .object(builder.vector(of: [subgraph])), 3: .object(builder.string("plantleaf hostile test model")),
                                   4: .object(buffers), 7: .object(builder.vector(of: [signature]))])
        return builder.finish(root: model, identifier: "TFL3")
    }
}
