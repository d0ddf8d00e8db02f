import PlantLeafCore
import PlantLeafSupport

/// A row a reader passed over because a column holds what it cannot (a damaged or hand-edited
/// journal): a value of another type, a NULL where every row has one, or a number out of the
/// range the readers compute with (a time past year 9999 overflows on the way to ISO 8601).
public struct JournalDamagedRow: Error, Sendable, Hashable {
    public var table: String
    public var id: Int64
    public var column: String
    /// What the column holds, as SQLite has it: "9000000000000000", "NULL", "'text'", "a blob of 7 bytes".
    public var value: String

    public init(table: String, id: Int64, column: String, value: String) {
        self.table = table
        self.id = id
        self.column = column
        self.value = value
    }
}

/// A column as the readers check it: the values it can hold.
struct JournalColumn: Sendable {
    enum Holds: Sendable {
        case integer(ClosedRange<Int64>)
        /// Any real, or a whole number (SQLite keeps 2.0 in a REAL column as it was bound).
        case real
        case text
        /// Text that is one of these words (a verdict).
        case word(Set<String>)
        /// A blob whose length is a multiple of this (the packed classes, 8 bytes each).
        case blob(multipleOf: Int)
    }

    let name: String
    let holds: Holds
    let nullable: Bool

    init(_ name: String, _ holds: Holds, nullable: Bool = false) {
        self.name = name
        self.holds = holds
        self.nullable = nullable
    }

    static let anyInteger = Holds.integer(.min ... .max)
    /// A row's number, or a reference to one.
    static func id(_ name: String = "id", nullable: Bool = false) -> JournalColumn { JournalColumn(name, anyInteger, nullable: nullable) }
    static func time(_ name: String, nullable: Bool = false) -> JournalColumn { JournalColumn(name, .integer(JournalTime.millisecondsRange), nullable: nullable) }
    static func offset(_ name: String, nullable: Bool = false) -> JournalColumn {
        JournalColumn(name, .integer(Int64(JournalTime.offsetMinutesRange.lowerBound)...Int64(JournalTime.offsetMinutesRange.upperBound)), nullable: nullable)
    }
    static let verdict = JournalColumn("verdict", .word(Set(Verdict.allCases.map(\.rawValue))))

    /// The column a reading's member is kept in, holding what the member's kind can be.
    init?(_ field: ReadingField) {
        guard let name = field.sqlColumn else { return nil }
        let holds: Holds
        switch field.kind {
        case .integer(let range): holds = .integer(Int64(range.lowerBound)...Int64(range.upperBound))
        case .real: holds = .real
        case .text: holds = .text
        case .classes: holds = .blob(multipleOf: Journal.packedClassBytes)
        case .words: return nil
        }
        self.init(name, holds, nullable: !field.isRequired)
    }
}

/// The columns a reader selects from one table, the row's number first: each row is checked
/// against them before anything is made of it, so every reader of every table passes over a
/// damaged row the same way.
struct JournalColumns: Sendable {
    let table: String
    let columns: [JournalColumn]

    init(_ table: String, _ columns: [JournalColumn]) {
        self.table = table
        self.columns = columns
    }

    /// The columns for a SELECT, each named by `qualifier` (a table's name, in a join).
    func list(qualifier: String? = nil) -> String { columns.map { (qualifier.map { $0 + "." } ?? "") + $0.name }.joined(separator: ", ") }

    /// The row's values in the columns' order, each what its column can hold; the damage found
    /// otherwise.
    func values(_ row: SQLiteRow) -> Result<[SQLiteValue], JournalDamagedRow> {
        var values: [SQLiteValue] = []
        values.reserveCapacity(columns.count)
        for (offset, column) in columns.enumerated() {
            let value = row.value(Int32(offset))
            guard JournalColumns.fits(value, column) else {
                return .failure(JournalDamagedRow(table: table, id: row.integer(0) ?? 0, column: column.name, value: JournalColumns.shown(value)))
            }
            values.append(value)
        }
        return .success(values)
    }

    private static func fits(_ value: SQLiteValue, _ column: JournalColumn) -> Bool {
        switch (value, column.holds) {
        case (.null, _): return column.nullable
        case (.integer(let number), .integer(let range)): return range.contains(number)
        case (.integer, .real), (.real, .real), (.text, .text): return true
        case (.text(let text), .word(let words)): return words.contains(text)
        case (.blob(let bytes), .blob(let multiple)): return bytes.count % multiple == 0
        default: return false
        }
    }

    /// A value as a line shows it: short, and with nothing a terminal acts on.
    static func shown(_ value: SQLiteValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .text(let text): return "'" + TerminalText.neutralised(String(text.prefix(40))) + (text.count > 40 ? "…'" : "'")
        case .blob(let bytes): return "a blob of \(bytes.count) bytes"
        }
    }
}

extension SQLiteValue {
    var integer: Int64? { if case .integer(let number) = self { number } else { nil } }
    var text: String? { if case .text(let text) = self { text } else { nil } }
    var blob: [UInt8]? { if case .blob(let bytes) = self { bytes } else { nil } }
}
