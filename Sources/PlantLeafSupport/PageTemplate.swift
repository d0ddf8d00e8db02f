/// HTML files filled in: the one way PlantLeaf writes a page (serve's pages, bench's report).
/// Each module keeps its files under its Embedded/ folder (`EmbeddedFiles.text`) and makes its
/// `PageTemplate` of them; the markup stays in the files, the Swift code fills in the values.
/// `{{key}}` is a word's text (the catalogue's, CataloguePages.swift), escaped; `{{=name}}` is
/// `values[name]`, HTML the program made (and escaped, `HTMLText`) itself. A file's last line end
/// is left out: it is the editor's, not the page's, so that a file can be a piece of a line (a
/// table cell, a swatch).
package struct PageTemplate: Sendable {
    /// A file's text cut at its fields: each piece is the text before a field, and the field's
    /// name between the braces (nil for the text after the last field).
    private typealias Piece = (text: Substring, field: Substring?)

    /// Each file cut into its pieces once, as a page fills small files (a row, a cell) many times.
    private let files: [String: [Piece]]

    /// The files by name ("photo.html"), as `EmbeddedFiles.text` holds them.
    package init(_ files: [String: String]) {
        self.files = files.mapValues(Self.pieces)
    }

    /// The file `name` ("photo.html") with its fields filled in: `{{key}}` with `words(key)`,
    /// escaped, and `{{=name}}` from `values`. A value not given is left empty (the page tests
    /// render every page and find none left). `render(_:_:_:)` takes its words from a catalogue.
    package func render(_ name: String, words: (String) -> String, _ values: [String: String]) -> String {
        (files[name] ?? []).map { piece in
            guard let field = piece.field else { return String(piece.text) }
            if field.hasPrefix("=") { return piece.text + (values[String(field.dropFirst())] ?? "") }
            return piece.text + HTMLText.escaped(words(String(field)))
        }.joined()
    }

    /// Filled pieces one a line (rows of a table, items of a list): a file's own line end is left out.
    package static func lineByLine(_ pieces: [String]) -> String { pieces.joined(separator: "\n") }

    /// The catalogue keys (`{{key}}`) the file `name` uses, for the tests.
    package func keys(in name: String) -> [String] {
        (files[name] ?? []).compactMap { $0.field }.filter { !$0.hasPrefix("=") }.map(String.init)
    }

    /// The names of the files.
    package var fileNames: [String] { files.keys.sorted() }

    private static func pieces(_ file: String) -> [Piece] {
        var pieces: [Piece] = []
        var rest = file[...]
        if rest.hasSuffix("\n") { rest = rest.dropLast() }
        while let open = rest.firstRange(of: "{{"), let close = rest[open.upperBound...].firstRange(of: "}}") {
            pieces.append((rest[..<open.lowerBound], rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        pieces.append((rest, nil))
        return pieces
    }
}
