/// A unified diff (as `diff -u` prints it) from `old` to `new`, line by line, with `context`
/// unchanged lines around each change; cut after `limit` lines, so a failure message shows the
/// first differences rather than a whole file. Empty when the two are equal.
public func unifiedDiff(from old: String, to new: String, oldName: String, newName: String,
                        context: Int = 3, limit: Int = 60) -> String {
    let a = diffLines(old), b = diffLines(new)
    // common[i][j]: the longest common subsequence of a[i...] and b[j...].
    var common = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in stride(from: a.count - 1, through: 0, by: -1) {
        for j in stride(from: b.count - 1, through: 0, by: -1) {
            common[i][j] = a[i] == b[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
        }
    }
    // The edit script, removals before additions: each line of either text once, with the
    // lines of each text before it.
    var edits: [(mark: Character, line: String, oldLine: Int, newLine: Int)] = []
    var (i, j) = (0, 0)
    while i < a.count || j < b.count {
        if i < a.count && j < b.count && a[i] == b[j] {
            edits.append((" ", a[i], i, j))
            (i, j) = (i + 1, j + 1)
        } else if i < a.count && (j == b.count || common[i + 1][j] >= common[i][j + 1]) {
            edits.append(("-", a[i], i, j))
            i += 1
        } else {
            edits.append(("+", b[j], i, j))
            j += 1
        }
    }
    let changes = edits.indices.filter { edits[$0].mark != " " }
    guard !changes.isEmpty else { return "" }
    // Hunks: each change with its context, hunks that touch or overlap merged.
    var hunks: [ClosedRange<Int>] = []
    for index in changes {
        let range = max(0, index - context)...min(edits.count - 1, index + context)
        if let last = hunks.last, range.lowerBound <= last.upperBound + 1 {
            hunks[hunks.count - 1] = last.lowerBound...range.upperBound
        } else {
            hunks.append(range)
        }
    }
    var lines = ["--- \(oldName)", "+++ \(newName)"]
    for hunk in hunks {
        let slice = edits[hunk]
        let oldCount = slice.filter { $0.mark != "+" }.count, newCount = slice.filter { $0.mark != "-" }.count
        let first = slice.first!
        // As diff -u numbers them: from 1, and an empty side starts at the line before it.
        lines.append("@@ -\(first.oldLine + (oldCount > 0 ? 1 : 0)),\(oldCount) +\(first.newLine + (newCount > 0 ? 1 : 0)),\(newCount) @@")
        lines += slice.map { String($0.mark) + $0.line }
    }
    let shown = lines.joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false)
    guard shown.count > limit else { return shown.joined(separator: "\n") }
    return (shown.prefix(limit) + ["… (\(shown.count - limit) more lines of diff)"]).joined(separator: "\n")
}

/// The lines of `text` as diff takes them: a final newline ends the last line, and a last line
/// without one carries diff's note, so that the difference shows.
private func diffLines(_ text: String) -> [String] {
    guard !text.isEmpty else { return [] }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if text.hasSuffix("\n") {
        lines.removeLast()
    } else {
        lines[lines.count - 1] += "\n\\ No newline at end of file"
    }
    return lines
}
