/// Text made safe for HTML, the one escaper of every page PlantLeaf writes (serve's pages, bench's
/// report).
package enum HTMLText {
    /// `text` safe inside an element or a quoted attribute: & < > " ' as character references,
    /// and control characters (other than tab and newline) as U+FFFD, which HTML forbids.
    package static func escaped(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\t", "\n": escaped.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                let control = value < 0x20 || (value >= 0x7F && value < 0xA0)
                escaped.unicodeScalars.append(control ? "\u{FFFD}" : scalar)
            }
        }
        return escaped
    }
}
