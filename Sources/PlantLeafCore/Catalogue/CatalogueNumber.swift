extension Catalogue {
    /// A whole number as the language groups its thousands ("12,345"; «12٬345» with Arabic's
    /// own separator), in the Western digits every page and output uses.
    public func number(_ n: Int) -> String {
        let digits = Array(String(n.magnitude))
        var text = n < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text += self["number.group"] }
            text.append(digit)
        }
        return text
    }
}
