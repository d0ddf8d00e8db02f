/// Why a file could not be written, in the system's words (the caller knows which file).
public struct FileWriteError: PlantLeafError {
    package var reason: String
    public var message: String { reason }
}
