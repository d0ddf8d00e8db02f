import Foundation
import PlantLeafTestSupport
import Testing

/// A page's markup is in its template files (each module's Embedded/ folder, filled by
/// `PageTemplate`), never in a Swift string: every string literal in Sources is read, with its
/// escapes undone and its interpolations left out, and none may hold an HTML or SVG tag.
@Suite struct MarkupInTemplatesTests {
    /// The elements PlantLeaf's pages use, and the other common ones a page would.
    static let elements: Set<String> = [
        "a", "article", "b", "bdi", "body", "br", "button", "circle", "code", "details", "div", "em", "figcaption", "figure",
        "footer", "form", "g", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "i", "img", "input", "label",
        "li", "line", "link", "main", "meta", "nav", "ol", "option", "optgroup", "p", "path", "polyline", "pre", "rect", "script",
        "section", "select", "small", "span", "strong", "style", "summary", "svg", "table", "tbody", "td", "text", "textarea",
        "th", "thead", "title", "tr", "ul",
    ]

    /// A string literal's text and the line it starts on.
    struct Literal {
        var line: Int
        var text: [UInt8] = []
    }

    /// The string literals of Swift source `code`: plain, multi-line and raw ones, the literals
    /// inside interpolations on their own; comments skipped.
    static func literals(in code: [UInt8]) -> [Literal] {
        var reader = LiteralReader(code: code)
        reader.readCode(untilClosingParenthesis: false)
        return reader.found
    }

    struct LiteralReader {
        let code: [UInt8]
        var position = 0
        var line = 1
        var found: [Literal] = []

        init(code: [UInt8]) { self.code = code }

        func at(_ offset: Int) -> UInt8? { position + offset < code.count ? code[position + offset] : nil }

        func starts(with text: String) -> Bool {
            let bytes = Array(text.utf8)
            return position + bytes.count <= code.count && Array(code[position..<position + bytes.count]) == bytes
        }

        mutating func advance(_ count: Int = 1) {
            for _ in 0..<count where position < code.count {
                if code[position] == UInt8(ascii: "\n") { line += 1 }
                position += 1
            }
        }

        /// Code up to its end, or (inside an interpolation) to the parenthesis that closes it.
        mutating func readCode(untilClosingParenthesis: Bool) {
            var depth = 0
            while position < code.count {
                if starts(with: "//") {
                    while let byte = at(0), byte != UInt8(ascii: "\n") { advance() }
                } else if starts(with: "/*") {
                    var nesting = 0
                    repeat {
                        if starts(with: "/*") { nesting += 1; advance(2) } else if starts(with: "*/") { nesting -= 1; advance(2) } else { advance() }
                    } while nesting > 0 && position < code.count
                } else if at(0) == UInt8(ascii: "#") || at(0) == UInt8(ascii: "\"") {
                    var hashes = 0
                    while at(hashes) == UInt8(ascii: "#") { hashes += 1 }
                    guard at(hashes) == UInt8(ascii: "\"") else { advance(max(hashes, 1)); continue }
                    advance(hashes)
                    readLiteral(hashes: hashes)
                } else if at(0) == UInt8(ascii: "(") {
                    depth += 1
                    advance()
                } else if at(0) == UInt8(ascii: ")") {
                    if untilClosingParenthesis && depth == 0 { advance(); return }
                    depth -= 1
                    advance()
                } else {
                    advance()
                }
            }
        }

        /// A literal from its opening quote: escapes undone (none in a raw literal, whose `hashes`
        /// also end it), interpolations read as code.
        mutating func readLiteral(hashes: Int) {
            let multiLine = starts(with: "\"\"\"")
            let quote = multiLine ? "\"\"\"" : "\""
            var literal = Literal(line: line)
            advance(quote.utf8.count)
            let closing = quote + String(repeating: "#", count: hashes)
            let escape = "\\" + String(repeating: "#", count: hashes)
            while position < code.count, !starts(with: closing) {
                if starts(with: escape) {
                    advance(escape.utf8.count)
                    guard let byte = at(0) else { break }
                    switch byte {
                    case UInt8(ascii: "("):
                        advance()
                        readCode(untilClosingParenthesis: true)
                    case UInt8(ascii: "n"): literal.text.append(UInt8(ascii: "\n")); advance()
                    case UInt8(ascii: "t"): literal.text.append(UInt8(ascii: "\t")); advance()
                    case UInt8(ascii: "u"):
                        while let next = at(0), next != UInt8(ascii: "}") { advance() }
                        advance()
                    default: literal.text.append(byte); advance()
                    }
                } else {
                    literal.text.append(code[position])
                    advance()
                }
            }
            advance(closing.utf8.count)
            found.append(literal)
        }
    }

    /// The tags in `text`: `<name` or `</name` of a known element, followed by a space, `>`, `/` or the end.
    static func tags(in text: [UInt8]) -> [String] {
        var tags: [String] = []
        for (index, byte) in text.enumerated() where byte == UInt8(ascii: "<") {
            var start = index + 1
            if start < text.count, text[start] == UInt8(ascii: "/") { start += 1 }
            var end = start
            while end < text.count, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(text[end] | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[end]) {
                end += 1
            }
            guard end > start, end == text.count || [UInt8(ascii: " "), UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "\n")].contains(text[end]) else { continue }
            let name = String(decoding: text[start..<end], as: UTF8.self).lowercased()
            if elements.contains(name) { tags.append(String(decoding: text[index..<end], as: UTF8.self)) }
        }
        return tags
    }

    @Test func noSwiftStringInSourcesHoldsATag() throws {
        let sources = TestPaths.root + "/Sources"
        let files = try #require(FileManager.default.enumerator(atPath: sources)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count > 100, "found only \(files.count) Swift files under \(sources)")
        var found: [String] = []
        for file in files {
            let code = Array(try String(contentsOfFile: sources + "/" + file, encoding: .utf8).utf8)
            for literal in Self.literals(in: code) {
                let tags = Self.tags(in: literal.text)
                if !tags.isEmpty { found.append("Sources/\(file):\(literal.line): \(tags.joined(separator: " "))") }
            }
        }
        #expect(found.isEmpty, "markup belongs in a template under the module's Embedded/ folder:\n\(found.joined(separator: "\n"))")
    }

    /// The reader finds what it must: tags in plain, escaped, multi-line and raw literals, and in a
    /// literal inside an interpolation; none in comments, interpolated code or a generic type.
    @Test func theReaderFindsTagsOnlyInLiterals() {
        func tags(_ code: String) -> [String] { Self.literals(in: Array(code.utf8)).flatMap { Self.tags(in: $0.text) } }
        #expect(tags(#"let a = "<p class=\"x\">""#) == ["<p"])
        #expect(tags(#"let a = "x\(y < z ? "</td>" : "")""#) == ["</td"])
        #expect(tags("let a = \"\"\"\n    <svg width=\"1\">\n    \"\"\"") == ["<svg"])
        #expect(tags(##"let a = #"<a href="/">"#"##) == ["<a"])
        #expect(tags("// \"<p>\"\n/* \"<div>\" */ let a: Set<Int> = [] ; let b = \"<0.001 and <command> and </\"") == [])
    }
}
