import PlantLeafCore
import PlantLeafSupport

/// The pages' HTML files under Embedded/, filled in: `{{key}}` is the catalogue's text of `key`,
/// escaped; `{{=name}}` is `values[name]`, HTML the server made (and escaped) itself.
enum PageTemplate {
    /// The file `name` ("photo.html") with its fields filled in from `catalogue` and `values`. A
    /// value not given is left empty (the page tests render every page and find none left).
    static func render(_ name: String, _ catalogue: Catalogue, _ values: [String: String] = [:]) -> String {
        pieces(of: name).map { piece in
            guard let field = piece.field else { return String(piece.text) }
            if field.hasPrefix("=") { return piece.text + (values[String(field.dropFirst())] ?? "") }
            return piece.text + HTMLText.escaped(catalogue[String(field)])
        }.joined()
    }

    /// The catalogue keys (`{{key}}`) the file `name` uses, for the tests.
    static func keys(in name: String) -> [String] {
        pieces(of: name).compactMap { $0.field }.filter { !$0.hasPrefix("=") }.map(String.init)
    }

    /// The names of the embedded files.
    static var fileNames: [String] { EmbeddedFiles.text.keys.sorted() }

    /// The file's text cut at its fields: each piece is the text before a field, and the field's
    /// name between the braces (nil for the text after the last field).
    private static func pieces(of name: String) -> [(text: Substring, field: Substring?)] {
        var pieces: [(text: Substring, field: Substring?)] = []
        var rest = (EmbeddedFiles.text[name] ?? "")[...]
        while let open = rest.firstRange(of: "{{"), let close = rest[open.upperBound...].firstRange(of: "}}") {
            pieces.append((rest[..<open.lowerBound], rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        pieces.append((rest, nil))
        return pieces
    }
}
