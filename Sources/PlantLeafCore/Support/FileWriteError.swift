/// Why a file could not be written, in the system's words (the caller knows which file).
package struct FileWriteError: PlantLeafError {
    package var reason: String
    package var message: String { reason }
}
