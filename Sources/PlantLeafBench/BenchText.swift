import PlantLeafCore
import PlantLeafSupport
/// Small text-layout helpers shared by the benchmark report and the comparison.
enum BenchText {
    /// Milliseconds with microsecond resolution.
    static func milliseconds(_ value: Double) -> String { DecimalText.fixed(value, decimals: 3) }

    /// A time from a saved report as `milliseconds` does, but "<0.001" for one under a
    /// microsecond: "0.000" would read as no time at all.
    static func reportedMilliseconds(_ value: Double) -> String {
        value > 0 && value < 0.0005 ? "<0.001" : milliseconds(value)
    }

    /// Lines of columns padded to a common width: the first `leftAligned` columns aligned left
    /// (names, text), the rest right (numbers). Cells can hold text from a report file (a
    /// board, a stage or op name): control and bidi characters are written as escapes
    /// (`TerminalText.neutralised`) before the widths are measured, so no cell can move the
    /// cursor, start a row of its own or reorder its neighbours, and the columns still line up.
    static func table(_ rows: [[String]], leftAligned: Int = 1, indent: String = "  ") -> [String] {
        let rows = rows.map { $0.map(TerminalText.neutralised) }
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        return rows.map { row in
            let cells = row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column < leftAligned ? cell + padding : padding + cell
            }
            var line = indent + cells.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// "1.69x"
    static func ratio(_ value: Double) -> String { DecimalText.fixed(value, decimals: 2) + "x" }
}
