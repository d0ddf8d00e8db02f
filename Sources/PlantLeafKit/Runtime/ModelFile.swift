import Glibc

/// Checks a model file before LiteRT sees it: LiteRT trusts the flatbuffer it is given, so a
/// file that is not one should be refused here with a clear reason rather than reach it.
public enum ModelFile {
    /// Bytes 4..<8 of every TensorFlow Lite flatbuffer.
    static let identifier: [UInt8] = Array("TFL3".utf8)
    /// The smallest flatbuffer that can hold a model's root table and its identifier.
    static let minimumSize = 32

    public static func validate(path: String) throws(RuntimeError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw .modelNotFound(path: path) }
            throw .modelUnreadable(path: path, reason: String(cString: strerror(errno)))
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw .modelUnreadable(path: path, reason: "not a regular file")
        }
        guard let file = fopen(path, "rb") else {
            throw .modelUnreadable(path: path, reason: String(cString: strerror(errno)))
        }
        defer { fclose(file) }
        var header = [UInt8](repeating: 0, count: 8)
        let read = fread(&header, 1, header.count, file)
        let size = Int(status.st_size)
        guard size >= minimumSize, read == header.count else {
            throw .notAModel(path: path, reason: "only \(size) bytes")
        }
        guard Array(header[4..<8]) == identifier else {
            throw .notAModel(path: path, reason: "no TFL3 identifier at byte 4")
        }
        let rootOffset = Int(header[0]) | Int(header[1]) << 8 | Int(header[2]) << 16 | Int(header[3]) << 24
        guard rootOffset >= 8, rootOffset < size else {
            throw .notAModel(path: path, reason: "root table offset \(rootOffset) outside the \(size)-byte file")
        }
    }
}
