/// Bounds-checked reading of a flatbuffer: every offset is followed only after checking that what
/// it points at lies inside the buffer, so a truncated or corrupted file ends in a thrown reason
/// instead of a read past the end. Knows nothing of any schema (see `ModelStructure`).
struct FlatBufferReader {
    /// What was out of place, and where (a path such as "subgraphs[0].tensors[3].name").
    struct Damage: Error {
        var reason: String
    }

    let bytes: UnsafeRawBufferPointer
    /// Tables and vector elements still allowed to be visited. Every real object takes at least
    /// four bytes of its own, so a file that needs more visits than it has bytes reuses the same
    /// parts over and over, which only a file made to stall a loader does.
    private var visitsLeft: Int

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        visitsLeft = bytes.count
    }

    var size: Int { bytes.count }

    func unsigned(at position: Int, width: Int, _ what: @autoclosure () -> String) throws(Damage) -> UInt64 {
        guard position >= 0, width <= size, position <= size - width else {
            throw Damage(reason: "\(what()) lies past the end of the \(size)-byte file")
        }
        var value: UInt64 = 0
        for index in (0..<width).reversed() { value = value << 8 | UInt64(bytes[position + index]) }
        return value
    }

    func uint32(at position: Int, _ what: @autoclosure () -> String) throws(Damage) -> Int {
        Int(try unsigned(at: position, width: 4, what()))
    }

    /// Follows the unsigned offset stored at `position` (offsets point forward, from where they are stored).
    func follow(at position: Int, _ what: @autoclosure () -> String) throws(Damage) -> Int {
        let target = position + (try uint32(at: position, what()))
        guard target < size else { throw Damage(reason: "\(what()) points past the end of the \(size)-byte file") }
        return target
    }

    mutating func visit(_ count: Int, _ what: @autoclosure () -> String) throws(Damage) {
        visitsLeft -= count
        guard visitsLeft >= 0 else { throw Damage(reason: "\(what()) makes the file refer to its parts more often than its size allows") }
    }

    /// The table starting at `position`, with its vtable checked.
    mutating func table(at position: Int, _ what: @autoclosure () -> String) throws(Damage) -> Table {
        try visit(1, what())
        let vtableDistance = Int(Int32(truncatingIfNeeded: try unsigned(at: position, width: 4, what())))
        let vtable = position - vtableDistance
        let vtableSize = Int(try unsigned(at: vtable, width: 2, "\(what())'s vtable"))
        let tableSize = Int(try unsigned(at: vtable + 2, width: 2, "\(what())'s vtable"))
        guard vtableSize >= 4, vtableSize % 2 == 0, tableSize >= 4 else {
            throw Damage(reason: "\(what())'s vtable is malformed (\(vtableSize)-byte vtable, \(tableSize)-byte table)")
        }
        _ = try unsigned(at: vtable + vtableSize - 2, width: 2, "\(what())'s vtable")
        _ = try unsigned(at: position + tableSize - 1, width: 1, what())
        return Table(position: position, vtable: vtable, vtableSize: vtableSize, tableSize: tableSize)
    }

    /// Where field `id` of `table` is stored, or nil when the table does not have it.
    func field(_ id: Int, of table: Table, width: Int, _ what: @autoclosure () -> String) throws(Damage) -> Int? {
        let entry = 4 + 2 * id
        guard entry + 2 <= table.vtableSize else { return nil }
        let offset = Int(try unsigned(at: table.vtable + entry, width: 2, what()))
        guard offset != 0 else { return nil }
        guard offset + width <= table.tableSize else {
            throw Damage(reason: "\(what()) lies outside its \(table.tableSize)-byte table")
        }
        return table.position + offset
    }

    func scalar(_ id: Int, of table: Table, width: Int, _ what: @autoclosure () -> String) throws(Damage) -> UInt64? {
        guard let position = try field(id, of: table, width: width, what()) else { return nil }
        return try unsigned(at: position, width: width, what())
    }

    /// The vector that field `id` refers to: where its elements start and how many there are.
    func vector(_ id: Int, of table: Table, elementWidth: Int, _ what: @autoclosure () -> String) throws(Damage) -> Vector? {
        guard let position = try field(id, of: table, width: 4, what()) else { return nil }
        return try vector(at: try follow(at: position, what()), elementWidth: elementWidth, what())
    }

    func vector(at position: Int, elementWidth: Int, _ what: @autoclosure () -> String) throws(Damage) -> Vector {
        let count = try uint32(at: position, "\(what())'s length")
        let start = position + 4
        guard count * elementWidth <= size - start else {
            throw Damage(reason: "\(what()) holds \(count) elements, more than fit in the rest of the \(size)-byte file")
        }
        return Vector(start: start, count: count, elementWidth: elementWidth)
    }

    /// A string field: a byte vector followed by the NUL flatbuffers always write.
    func string(_ id: Int, of table: Table, _ what: @autoclosure () -> String) throws(Damage) {
        guard let text = try vector(id, of: table, elementWidth: 1, what()) else { return }
        guard try unsigned(at: text.start + text.count, width: 1, what()) == 0 else {
            throw Damage(reason: "\(what()) is not NUL-terminated")
        }
    }

    /// The tables a vector of offsets refers to.
    mutating func tables(_ id: Int, of table: Table, _ what: String) throws(Damage) -> [Table] {
        guard let list = try vector(id, of: table, elementWidth: 4, what) else { return [] }
        try visit(list.count, what)
        var result: [Table] = []
        result.reserveCapacity(list.count)
        for index in 0..<list.count {
            let element = "\(what)[\(index)]"
            result.append(try self.table(at: try follow(at: list.position(of: index), element), element))
        }
        return result
    }

    /// A TFLite model's operator codes, each its builtin operator: the newer 32-bit field, or the
    /// deprecated 8-bit one that older converters wrote (the larger of the two is the one set).
    mutating func builtinOperatorCodes(of model: Table) throws(Damage) -> [Int] {
        var codes: [Int] = []
        for code in try tables(1, of: model, "operator_codes") {
            let deprecated = Int(Int8(truncatingIfNeeded: try scalar(0, of: code, width: 1, "deprecated_builtin_code") ?? 0))
            let builtin = Int(Int32(truncatingIfNeeded: try scalar(3, of: code, width: 4, "builtin_code") ?? 0))
            codes.append(max(deprecated, builtin))
        }
        return codes
    }

    /// Checks that every 32-bit integer in the vector field lies in `allowed`.
    mutating func indices(_ id: Int, of table: Table, allowed: Range<Int>, _ what: String) throws(Damage) {
        guard let list = try vector(id, of: table, elementWidth: 4, what) else { return }
        try visit(list.count, what)
        for index in 0..<list.count {
            let value = Int(Int32(truncatingIfNeeded: try unsigned(at: list.position(of: index), width: 4, what)))
            guard allowed.contains(value) else {
                throw Damage(reason: "\(what)[\(index)] is \(value), outside \(allowed.lowerBound)..<\(allowed.upperBound)")
            }
        }
    }

    struct Table {
        let position: Int
        let vtable: Int
        let vtableSize: Int
        let tableSize: Int
    }

    struct Vector {
        let start: Int
        let count: Int
        let elementWidth: Int

        func position(of index: Int) -> Int { start + index * elementWidth }
    }
}
