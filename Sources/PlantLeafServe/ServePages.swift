import PlantLeafCore
import PlantLeafSupport

extension PageTemplate {
    /// Serve's pages and their pieces, the HTML files under Embedded/.
    static let serve = PageTemplate(EmbeddedFiles.text)
}
