import PlantLeafSupport

extension PageTemplate {
    /// The file `name` ("photo.html") with its `{{key}}` fields in `catalogue`'s words and its
    /// `{{=name}}` fields from `values`.
    package func render(_ name: String, _ catalogue: Catalogue, _ values: [String: String] = [:]) -> String {
        render(name, words: { catalogue[$0] }, values)
    }

    /// The file `name` with its `{{=name}}` fields filled in, for a page in English only (bench's
    /// report): its words are in the file.
    package func render(_ name: String, _ values: [String: String] = [:]) -> String {
        render(name, Catalogue.english, values)
    }
}
