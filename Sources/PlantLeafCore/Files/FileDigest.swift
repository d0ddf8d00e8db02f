import PlantLeafSupport

extension SHA256 {
    /// The digest of a file's contents, or nil when it cannot be read.
    public static func hex(ofFile path: String) -> String? {
        guard let bytes = try? FileReader.readAll(path: path) else { return nil }
        return hex(of: bytes)
    }
}
