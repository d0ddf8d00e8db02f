extension StringProtocol {
    /// The text without leading or trailing spaces, tabs, line breaks and byte-order marks
    /// (U+FEFF, which some editors write at the start of a file).
    package func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { character in
            switch character {
            case " ", "\t", "\n", "\r", "\r\n", "\u{FEFF}": return true
            default: return false
            }
        }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
