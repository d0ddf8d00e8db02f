/// Walks the parts of a TensorFlow Lite flatbuffer (schema version 3) that LiteRT follows while
/// loading and compiling a model, checking every offset, length and index on the way. LiteRT
/// itself trusts them: a truncated file or one flipped offset makes it read wild memory (seen as
/// SIGSEGV with libLiteRt.so 2.3.0), so this runs before the file is handed over.
///
/// Field numbers are the `id`s of tensorflow/lite/schema/schema.fbs; a union takes two (its type
/// byte, then the table). Builtin-operator option tables are checked as tables only, since their
/// fields differ per operator.
enum ModelStructure {
    static func check(_ bytes: UnsafeRawBufferPointer) throws(FlatBufferReader.Damage) {
        var reader = FlatBufferReader(bytes: bytes)
        let model = try reader.table(at: try reader.follow(at: 0, "root table offset"), "model")

        let operatorCodes = try reader.tables(1, of: model, "operator_codes")
        for (index, code) in operatorCodes.enumerated() {
            try reader.string(1, of: code, "operator_codes[\(index)].custom_code")
        }
        try reader.string(3, of: model, "description")

        let buffers = try reader.tables(4, of: model, "buffers")
        for (index, buffer) in buffers.enumerated() {
            try checkBuffer(buffer, name: "buffers[\(index)]", reader: reader)
        }
        try reader.indices(5, of: model, allowed: 0..<buffers.count, "metadata_buffer")
        for (index, metadata) in try reader.tables(6, of: model, "metadata").enumerated() {
            try reader.string(0, of: metadata, "metadata[\(index)].name")
            try checkIndex(1, of: metadata, below: buffers.count, "metadata[\(index)].buffer", reader: reader)
        }

        let subgraphs = try reader.tables(2, of: model, "subgraphs")
        guard !subgraphs.isEmpty else { throw FlatBufferReader.Damage(reason: "the model has no subgraph") }
        var tensorCounts: [Int] = []
        for (index, subgraph) in subgraphs.enumerated() {
            tensorCounts.append(try checkSubgraph(subgraph, name: "subgraphs[\(index)]", operatorCodes: operatorCodes.count,
                                                  buffers: buffers.count, reader: &reader))
        }

        for (index, signature) in try reader.tables(7, of: model, "signature_defs").enumerated() {
            let name = "signature_defs[\(index)]"
            try reader.string(2, of: signature, "\(name).signature_key")
            let subgraph = try checkIndex(4, of: signature, below: subgraphs.count, "\(name).subgraph_index", reader: reader)
            for (field, list) in [(0, "inputs"), (1, "outputs")] {
                for (entry, map) in try reader.tables(field, of: signature, "\(name).\(list)").enumerated() {
                    try reader.string(0, of: map, "\(name).\(list)[\(entry)].name")
                    try checkIndex(1, of: map, below: tensorCounts[subgraph], "\(name).\(list)[\(entry)].tensor_index", reader: reader)
                }
            }
        }
    }

    /// Checks one subgraph and returns how many tensors it has.
    private static func checkSubgraph(_ subgraph: FlatBufferReader.Table, name: String, operatorCodes: Int, buffers: Int,
                                      reader: inout FlatBufferReader) throws(FlatBufferReader.Damage) -> Int {
        let tensors = try reader.tables(0, of: subgraph, "\(name).tensors")
        for (index, tensor) in tensors.enumerated() {
            let tensorName = "\(name).tensors[\(index)]"
            try reader.indices(0, of: tensor, allowed: -1..<Int(Int32.max), "\(tensorName).shape")
            try checkIndex(2, of: tensor, below: buffers, "\(tensorName).buffer", reader: reader)
            try reader.string(3, of: tensor, "\(tensorName).name")
            if let position = try reader.field(4, of: tensor, width: 4, "\(tensorName).quantization") {
                let quantization = try reader.table(at: try reader.follow(at: position, "\(tensorName).quantization"),
                                                    "\(tensorName).quantization")
                for (field, list, width) in [(0, "min", 4), (1, "max", 4), (2, "scale", 4), (3, "zero_point", 8)] {
                    _ = try reader.vector(field, of: quantization, elementWidth: width, "\(tensorName).quantization.\(list)")
                }
                try checkTableField(5, of: quantization, "\(tensorName).quantization.details", reader: &reader)
            }
            try checkTableField(6, of: tensor, "\(tensorName).sparsity", reader: &reader)
            try reader.indices(7, of: tensor, allowed: -1..<Int(Int32.max), "\(tensorName).shape_signature")
        }
        try reader.indices(1, of: subgraph, allowed: 0..<tensors.count, "\(name).inputs")
        try reader.indices(2, of: subgraph, allowed: 0..<tensors.count, "\(name).outputs")
        for (index, op) in try reader.tables(3, of: subgraph, "\(name).operators").enumerated() {
            let opName = "\(name).operators[\(index)]"
            // A missing opcode_index means 0, which must exist too.
            guard Int(try reader.scalar(0, of: op, width: 4, "\(opName).opcode_index") ?? 0) < operatorCodes else {
                throw FlatBufferReader.Damage(reason: "\(opName).opcode_index is beyond the \(operatorCodes) operator codes")
            }
            // -1 marks an optional input that is left out.
            try reader.indices(1, of: op, allowed: -1..<tensors.count, "\(opName).inputs")
            try reader.indices(2, of: op, allowed: -1..<tensors.count, "\(opName).outputs")
            try checkTableField(4, of: op, "\(opName).builtin_options", reader: &reader)
            _ = try reader.vector(5, of: op, elementWidth: 1, "\(opName).custom_options")
            _ = try reader.vector(7, of: op, elementWidth: 1, "\(opName).mutating_variable_inputs")
            try reader.indices(8, of: op, allowed: 0..<tensors.count, "\(opName).intermediates")
            try checkTableField(12, of: op, "\(opName).builtin_options_2", reader: &reader)
        }
        try reader.string(4, of: subgraph, "\(name).name")
        return tensors.count
    }

    /// A buffer holds its bytes inline, or (models over 2 GB) names a range of the file past the flatbuffer.
    private static func checkBuffer(_ buffer: FlatBufferReader.Table, name: String, reader: FlatBufferReader) throws(FlatBufferReader.Damage) {
        _ = try reader.vector(0, of: buffer, elementWidth: 1, "\(name).data")
        let offset = try reader.scalar(1, of: buffer, width: 8, "\(name).offset") ?? 0
        let size = try reader.scalar(2, of: buffer, width: 8, "\(name).size") ?? 0
        // The converter writes offset 1 as a placeholder for "no external data".
        guard offset > 1 else { return }
        let fileSize = UInt64(reader.size)
        guard offset <= fileSize, size <= fileSize - offset else {
            throw FlatBufferReader.Damage(reason: "\(name) names bytes \(offset)+\(size), past the end of the \(fileSize)-byte file")
        }
    }

    @discardableResult
    private static func checkIndex(_ id: Int, of table: FlatBufferReader.Table, below count: Int, _ what: String,
                                   reader: FlatBufferReader) throws(FlatBufferReader.Damage) -> Int {
        let index = Int(try reader.scalar(id, of: table, width: 4, what) ?? 0)
        guard index < count else { throw FlatBufferReader.Damage(reason: "\(what) is \(index), beyond the \(count) there are") }
        return index
    }

    private static func checkTableField(_ id: Int, of table: FlatBufferReader.Table, _ what: String,
                                        reader: inout FlatBufferReader) throws(FlatBufferReader.Damage) {
        guard let position = try reader.field(id, of: table, width: 4, what) else { return }
        _ = try reader.table(at: try reader.follow(at: position, what), what)
    }
}
