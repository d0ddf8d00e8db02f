/// Text from a file (a label name) made safe to show on a terminal or in a CSV cell that will be
/// shown on one: a control character (C0, DEL, C1) could start an escape sequence that retitles
/// the window, moves the cursor or rewrites earlier lines, and a bidirectional formatting
/// character reorders what follows it on screen, so a name could disguise itself or the next
/// column. Each such character is written as \xHH of its UTF-8 bytes instead; the rest is kept.
package enum TerminalText {
    package static func neutralised(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                result += String(scalar).utf8.map { "\\x" + ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether the terminal would act on `scalar` rather than show it.
    package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: return true
        // ALM, LRM and RLM, the embeddings and overrides (LRE … RLO), the isolates (LRI … PDI).
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
