import PlantLeafSupport

/// Why a language file of the catalogue cannot be read.
package enum CatalogueError: Error, CustomStringConvertible {
    case notJSON(JSONReadError)
    /// The file is JSON, but not one object whose every member is a string; `key` names the
    /// member that is not (nil: the whole file is not an object).
    case notFlat(key: String?)

    package var description: String {
        switch self {
        case .notJSON(let error): return error.message
        case .notFlat(let key?): return "member \"\(key)\" is not a string"
        case .notFlat(nil): return "not a JSON object"
        }
    }
}
