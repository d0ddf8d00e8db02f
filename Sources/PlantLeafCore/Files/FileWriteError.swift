import PlantLeafSupport

/// Why a file could not be written, in the system's words (the caller knows which file).
public struct FileWriteError: PlantLeafError {
    package var reason: String
    package init(reason: String) { self.reason = reason }
    public var message: String { reason }
}
