import Glibc
import PlantLeafSupport

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
    /// The mapping's own size: the file's, plus a page for the outputs vector written after it
    /// when the pooled features were asked for.
    private let mappedSize: Int
    /// The pooled feature tensor's name when it was added as the model's last output; nil when it
    /// was not asked for or the model has none (`featureProblem` says which).
    public let pooledFeatureName: String?

    /// Maps and checks the file at `path`. With `inputSide`, the windows of its global average
    /// pools are set for a square input of that side (`GlobalPoolWindow`), in this process's copy
    /// of their page only: the file and other processes' mappings of it keep theirs.
    ///
    /// With `pooledFeature`, the model's last global pool (`PooledFeatureOutput`) is added to its
    /// outputs, in this process's copy likewise: the new outputs vector goes in a page mapped
    /// just after the file, and the subgraph's offset to it is the one byte range changed.
    ///
    /// - Throws: `RuntimeError.modelNotFound`, `.modelUnreadable`, `.notAModel` or `.damagedModel`.
    public init(path: String, inputSide: Int? = nil, pooledFeature: Bool = false) throws(RuntimeError) {
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
        let writable = inputSide != nil || pooledFeature
        let protection = writable ? PROT_READ | PROT_WRITE : PROT_READ
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        // Room after the file: the file's last page up to its end, then one anonymous page.
        let mappedSize = pooledFeature ? (size + page - 1) / page * page + page : size
        var mapping: UnsafeMutableRawPointer?
        if pooledFeature {
            guard let reserved = mmap(nil, mappedSize, protection, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), reserved != MAP_FAILED else {
                throw .modelUnreadable(path: path, reason: .system(SystemError(errno)))
            }
            guard let fileMapping = mmap(reserved, size, protection, MAP_PRIVATE | MAP_FIXED, descriptor, 0), fileMapping != MAP_FAILED else {
                let error = errno
                munmap(reserved, mappedSize)
                throw .modelUnreadable(path: path, reason: .system(SystemError(error)))
            }
            mapping = fileMapping
        } else {
            guard let fileMapping = mmap(nil, size, protection, MAP_PRIVATE, descriptor, 0), fileMapping != MAP_FAILED else {
                throw .modelUnreadable(path: path, reason: .system(SystemError(errno)))
            }
            mapping = fileMapping
        }
        var bytes = UnsafeRawBufferPointer(start: mapping, count: size)
        var featureName: String?
        do {
            try ModelFile.check(contents: bytes, path: path)
            if let inputSide {
                try ModelFile.setGlobalPoolWindows(UnsafeMutableRawBufferPointer(mutating: bytes), inputSide: inputSide, path: path)
            }
            if pooledFeature, let added = try ModelFile.addPooledFeatureOutput(mapping!, size: size, room: mappedSize - size, path: path) {
                bytes = UnsafeRawBufferPointer(start: mapping, count: added.size)
                featureName = added.name
                try ModelFile.check(contents: bytes, path: path)
            }
            if writable { mprotect(mapping, mappedSize, PROT_READ) }
        } catch {
            munmap(mapping, mappedSize)
            throw error
        }
        self.path = path
        self.bytes = bytes
        self.mappedSize = mappedSize
        pooledFeatureName = featureName
        identity = FileIdentity(status)
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), mappedSize)
    }

    /// Writes the subgraph's outputs plus its pooled tensor as a new vector after the file's end
    /// (4-byte aligned, as flatbuffers' vectors are) and points the subgraph at it; returns the
    /// buffer's new size and the tensor's name, or nil when the model has no pooled vector.
    private static func addPooledFeatureOutput(_ mapping: UnsafeMutableRawPointer, size: Int, room: Int,
                                               path: String) throws(RuntimeError) -> (size: Int, name: String)? {
        let found: PooledFeatureOutput?
        do {
            found = try PooledFeatureOutput.find(in: UnsafeRawBufferPointer(start: mapping, count: size))
        } catch {
            throw .damagedModel(path: path, reason: error.reason)
        }
        guard let found else { return nil }
        let vector = found.newOutputsVector
        let start = (size + 15) / 16 * 16
        guard start + vector.count <= size + room else { return nil }
        for (offset, byte) in vector.enumerated() { mapping.storeBytes(of: byte, toByteOffset: start + offset, as: UInt8.self) }
        let offset = UInt32(start - found.outputsFieldPosition).littleEndian
        mapping.storeBytes(of: offset, toByteOffset: found.outputsFieldPosition, as: UInt32.self)
        return (start + vector.count, found.tensorName)
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
