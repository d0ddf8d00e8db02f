/// Why a file's bytes could not be read, in the system's words (the caller knows which file).
package struct FileReadError: PlantLeafError {
    package var reason: String
    package var message: String { reason }

    package init(reason: String) { self.reason = reason }
}
