/// Numbers as decimal text: the one formatter behind every output (text, JSON, CSV).
package enum DecimalText {
    /// At most `decimals` decimals and no trailing zeros ("3.91", "4", "-0.5"); nil for NaN and
    /// infinities, which have no decimal form (JSON writes them as null, text as "-").
    package static func shortest(_ value: Double, decimals: Int) -> String? {
        guard value.isFinite else { return nil }
        // Past 2^53 there are no decimals to round, and scaling could overflow to infinity.
        guard abs(value) < 1e15 else { return String(value) }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        // Whole numbers print without a point; -0.0 (a small negative rounded away) prints as 0.
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        var text = String(rounded)
        if text.contains("e") { return text }
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    /// Exactly `decimals` decimals ("3.910", "-0.5", "0.0"); "-" for NaN and infinities.
    package static func fixed(_ value: Double, decimals: Int) -> String {
        guard var text = shortest(value, decimals: decimals) else { return "-" }
        guard decimals > 0, !text.contains("e") else { return text }
        if !text.contains(".") { text += "." }
        let present = text.count - 1 - text.distance(from: text.startIndex, to: text.firstIndex(of: ".")!)
        return text + String(repeating: "0", count: decimals - present)
    }
}
