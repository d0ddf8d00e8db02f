import Glibc

/// A model file mapped into memory and checked before LiteRT sees it: LiteRT trusts the
/// flatbuffer it is given, so a file that is not one, or a damaged one, is refused here with a
/// clear reason rather than handed to code that would read outside it.
///
/// LiteRT is then given these same checked bytes (LiteRtCreateModelFromBuffer), never the path
/// again, so another file renamed into the path's place after the check is not what it loads.
/// LiteRT reads the bytes for as long as its model lives, so an interpreter holds on to its
/// ModelFile until its LiteRT objects are destroyed. (The mapped file itself must still not be
/// rewritten in place meanwhile: a mapping shows such writes, and a truncation faults.)
public final class ModelFile {
    /// Bytes 4..<8 of every TensorFlow Lite flatbuffer.
    static let identifier: [UInt8] = Array("TFL3".utf8)
    /// The smallest flatbuffer that can hold a model's root table and its identifier.
    static let minimumSize = 32

    public let path: String
    /// The whole file, mapped read-only; unmapped in deinit.
    let bytes: UnsafeRawBufferPointer
    /// The mapped file's identity, which keys its stored digest (`WeightCache`).
    let identity: FileIdentity

    /// Maps and checks the file at `path`. With `inputSide`, the windows of its global average
    /// pools are set for a square input of that side (`GlobalPoolWindow`), in this process's copy
    /// of their page only: the file and other processes' mappings of it keep theirs.
    ///
    /// - Throws: `RuntimeError.modelNotFound`, `.modelUnreadable`, `.notAModel` or `.damagedModel`.
    public init(path: String, inputSide: Int? = nil) throws(RuntimeError) {
        // O_NONBLOCK: a FIFO given as the model must not hang the open; it is refused below.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw .modelNotFound(path: path) }
            throw .modelUnreadable(path: path, reason: .system(SystemError(errno)))
        }
        // The mapping stays valid after the descriptor is closed.
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .modelUnreadable(path: path, reason: .system(SystemError(errno)))
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw .modelUnreadable(path: path, reason: .notRegularFile(mode: status.st_mode))
        }
        let size = Int(status.st_size)
        guard size >= ModelFile.minimumSize else { throw .notAModel(path: path, reason: "only \(size) bytes") }
        // Mapped rather than read: the pages stay the page cache's, one copy for every
        // interpreter and process running this model.
        let protection = inputSide == nil ? PROT_READ : PROT_READ | PROT_WRITE
        guard let mapping = mmap(nil, size, protection, MAP_PRIVATE, descriptor, 0), mapping != MAP_FAILED else {
            throw .modelUnreadable(path: path, reason: .system(SystemError(errno)))
        }
        let bytes = UnsafeRawBufferPointer(start: mapping, count: size)
        do {
            try ModelFile.check(contents: bytes, path: path)
            if let inputSide {
                try ModelFile.setGlobalPoolWindows(UnsafeMutableRawBufferPointer(mutating: bytes), inputSide: inputSide, path: path)
                mprotect(mapping, size, PROT_READ)
            }
        } catch {
            munmap(mapping, size)
            throw error
        }
        self.path = path
        self.bytes = bytes
        identity = FileIdentity(status)
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }

    private static func setGlobalPoolWindows(_ bytes: UnsafeMutableRawBufferPointer, inputSide: Int, path: String) throws(RuntimeError) {
        let windows: [GlobalPoolWindow]
        do {
            windows = try GlobalPoolWindow.find(in: UnsafeRawBufferPointer(bytes))
        } catch {
            throw .damagedModel(path: path, reason: error.reason)
        }
        for window in windows {
            let side = UInt32(window.side(forInputSide: inputSide)).littleEndian
            bytes.storeBytes(of: side, toByteOffset: window.widthPosition, as: UInt32.self)
            bytes.storeBytes(of: side, toByteOffset: window.heightPosition, as: UInt32.self)
        }
    }

    /// Checks a model's bytes: size, identifier, and the flatbuffer structure LiteRT will follow.
    ///
    /// - Throws: `RuntimeError.notAModel` (too short, wrong identifier) or `.damagedModel` naming
    ///   the first structure that does not hold.
    public static func check(contents bytes: UnsafeRawBufferPointer, path: String) throws(RuntimeError) {
        guard bytes.count >= minimumSize else { throw .notAModel(path: path, reason: "only \(bytes.count) bytes") }
        guard Array(bytes[4..<8]) == identifier else {
            throw .notAModel(path: path, reason: "no TFL3 identifier at byte 4")
        }
        do {
            try ModelStructure.check(bytes)
        } catch {
            throw .damagedModel(path: path, reason: error.reason)
        }
    }
}
