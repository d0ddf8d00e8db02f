import Glibc
import PlantLeafSupport

/// What became of the XNNPACK weight cache when an interpreter was compiled.
public enum WeightCacheState: Equatable, Sendable {
    /// No cache folder was given.
    case off
    /// A cache this code had written for the same model and runtime was read.
    case loaded
    /// No trusted cache was there: the weights were packed and the cache written for next time.
    case built
    /// The cache could not be used (the reason); the model was compiled without it.
    case unavailable(String)
}

/// XNNPACK's cache of packed weights for one model on one runtime, in a folder of the user's.
///
/// XNNPACK checks little more than a header before reading a cache file's contents as packed
/// weights, so a file is handed to it only when it is the very file this code renamed into
/// place: the file's identity (device, inode, size, modification and change times) is written
/// in a stamp beside it, and any other file under the name (truncated, rewritten in place,
/// copied or renamed over) is rebuilt rather than trusted. Hashing the cache on every start
/// would cost more than the cache saves; the change time cannot be set back by the user's tools.
///
/// The name holds the model's and the runtime's sha256. Hashing the 8 MB libLiteRt.so in every
/// process costs more than the cache saves too, so each file's digest is stored under the
/// file's identity in `digests/` and computed again only when that identity is new.
///
/// Everything is written as the user, 0600 in 0700 folders, under a temporary name then renamed,
/// and opened with O_NOFOLLOW: a symbolic link planted in the folder is refused, not followed.
///
/// Each model or runtime change leaves a cache of 3-9 MB behind, so whenever one is written the
/// folder is pruned (`prune`): caches of another runtime, caches unused for `maximumAge`, the
/// least recently used beyond `maximumCaches`, and digests no cache is named by. A cache's last
/// use is its stamp's modification time, set each time the cache is read.
struct WeightCache {
    /// Caches kept at most: a grower switching between a few models keeps each one's.
    static let maximumCaches = 8
    /// A cache unused this long (seconds: 30 days) is stale.
    static let maximumAge = 30 * 24 * 3600
    /// A temporary file older than this (seconds) was left by a process that died while writing.
    static let abandonedAfter = 3600

    /// The path XNNPACK is given: the trusted cache, or a new empty file for it to fill.
    let compilePath: String
    let building: Bool
    private let cachePath: String
    private let stampPath: String
    private let runtimeDigest: String

    /// Finds the cache for `model` run by the runtime at `runtimePath` under `folder`, creating
    /// the folders as needed.
    ///
    /// - Throws: `WeightCacheError` when the folder, the model or the runtime cannot be used.
    init(folder: String, model: ModelFile, runtimePath: String) throws(WeightCacheError) {
        // XNNPACK's options are TOML: a path it could not be given literally is not used.
        guard !folder.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            throw WeightCacheError("the cache folder's name holds a quote, a backslash or a control character")
        }
        let xnnpack = folder + "/xnnpack", digests = folder + "/digests"
        try WeightCache.makeOwnFolder(folder, parents: true)
        try WeightCache.makeOwnFolder(xnnpack, parents: false)
        try WeightCache.makeOwnFolder(digests, parents: false)
        let modelDigest = try WeightCache.digest(identity: model.identity, in: digests) { SHA256.hex(of: Array(model.bytes)) }
        var runtimeStatus = stat()
        guard stat(runtimePath, &runtimeStatus) == 0 else { throw WeightCacheError(SystemError(errno).reason) }
        let runtimeDigest = try WeightCache.digest(identity: FileIdentity(runtimeStatus), in: digests) {
            SHA256.hex(ofFile: runtimePath)
        }
        self.runtimeDigest = runtimeDigest
        cachePath = "\(xnnpack)/\(modelDigest)-\(runtimeDigest).cache"
        stampPath = cachePath + ".stamp"
        if let identity = WeightCache.ownFileIdentity(cachePath), WeightCache.readSmallFile(stampPath) == identity.text {
            compilePath = cachePath
            building = false
            // The last use, which pruning keeps the most recent caches by.
            utimensat(AT_FDCWD, stampPath, nil, AT_SYMLINK_NOFOLLOW)
        } else {
            // A new file of our own for XNNPACK to fill; renamed over the cache once complete.
            compilePath = "\(cachePath).\(getpid()).tmp"
            unlink(compilePath)
            let descriptor = open(compilePath, O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw WeightCacheError(SystemError(errno).reason) }
            defer { close(descriptor) }
            if let problem = WeightCache.sharedMappingProblem(descriptor) {
                unlink(compilePath)
                throw WeightCacheError("the cache folder's file system cannot map a file being written (\(problem.reason))")
            }
            building = true
        }
    }

    /// After a successful compile: puts a newly built cache in place, stamped. Returns the state.
    func commit() -> WeightCacheState {
        guard building else { return .loaded }
        guard let built = WeightCache.ownFileIdentity(compilePath), built.size > 0 else {
            abandon()
            return .unavailable("XNNPACK wrote no cache")
        }
        guard rename(compilePath, cachePath) == 0 else {
            let reason = SystemError(errno).reason
            abandon()
            return .unavailable(reason)
        }
        // Stamped after the rename, which changes the file's change time.
        guard let identity = WeightCache.ownFileIdentity(cachePath) else { return .unavailable("the cache vanished once written") }
        do {
            try WeightCache.writeAtomically(identity.text, to: stampPath)
        } catch {
            return .unavailable(error.reason)
        }
        prune()
        return .built
    }

    /// Removes, beside the cache just written: other runtimes' caches, caches unused for
    /// `maximumAge`, the least recently used beyond `maximumCaches`, temporary files of processes
    /// that died while writing, and stored digests that no remaining cache is named by.
    /// Only regular files of this user's are removed; what cannot be removed is left.
    func prune(now: Int = Int(time(nil))) {
        let xnnpack = WeightCache.parentFolder(of: cachePath)
        let digests = WeightCache.parentFolder(of: xnnpack) + "/digests"
        var kept: [(path: String, lastUse: Int)] = []
        var keptDigests: Set<String> = []
        for name in WeightCache.fileNames(in: xnnpack) {
            let path = xnnpack + "/" + name
            if name.hasSuffix(".tmp") {
                if let modified = WeightCache.modificationTime(path), now - modified > WeightCache.abandonedAfter { unlink(path) }
                continue
            }
            guard name.hasSuffix(".cache") else {
                // A stamp whose cache is gone.
                if name.hasSuffix(".cache.stamp"), WeightCache.modificationTime(String(path.dropLast(6))) == nil { unlink(path) }
                continue
            }
            guard path != cachePath else { continue }
            let digestsInName = name.dropLast(6).split(separator: "-").map(String.init)
            let lastUse = WeightCache.modificationTime(path + ".stamp") ?? WeightCache.modificationTime(path) ?? 0
            if digestsInName.count != 2 || digestsInName[1] != runtimeDigest || now - lastUse > WeightCache.maximumAge {
                WeightCache.removeCache(path)
            } else {
                kept.append((path, lastUse))
            }
        }
        kept.sort { $0.lastUse > $1.lastUse }
        for old in kept.dropFirst(WeightCache.maximumCaches - 1) { WeightCache.removeCache(old.path) }
        for cache in kept.prefix(WeightCache.maximumCaches - 1) + [(cachePath, now)] {
            let name = cache.path.split(separator: "/").last.map { String($0.dropLast(6)) } ?? ""
            keptDigests.formUnion(name.split(separator: "-").map(String.init))
        }
        for name in WeightCache.fileNames(in: digests) {
            let path = digests + "/" + name
            let stale = name.hasSuffix(".tmp") ? (WeightCache.modificationTime(path).map { now - $0 > WeightCache.abandonedAfter } ?? false)
                : name.hasSuffix(".sha256") && !(WeightCache.readSmallFile(path).map(keptDigests.contains) ?? false)
            if stale { unlink(path) }
        }
    }

    /// After a failed compile: removes the file XNNPACK was filling.
    /// Why a file open for writing cannot be mapped shared, as XNNPACK maps the cache it builds;
    /// nil when it can. Some file systems refuse (9p without its mmap cache, as a VM's shared
    /// folder or WSL's Windows drives have it), and XNNPACK then compiles a model that fails at
    /// its first run: such a folder gets no cache. The file is left empty.
    private static func sharedMappingProblem(_ descriptor: Int32) -> SystemError? {
        let length = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard ftruncate(descriptor, off_t(length)) == 0 else { return SystemError(errno) }
        defer { ftruncate(descriptor, 0) }
        let mapping = mmap(nil, length, PROT_READ, MAP_SHARED, descriptor, 0)
        guard let mapping, mapping != MAP_FAILED else { return SystemError(errno) }
        munmap(mapping, length)
        return nil
    }

    func abandon() {
        if building { unlink(compilePath) }
    }

    // MARK: - Files

    private static func removeCache(_ path: String) {
        unlink(path)
        unlink(path + ".stamp")
    }

    private static func parentFolder(of path: String) -> String {
        String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    }

    /// The names in `folder` of regular files of this user's (no links, no folders).
    private static func fileNames(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            var status = stat()
            guard lstat(folder + "/" + name, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_uid == geteuid() else { continue }
            names.append(name)
        }
        return names
    }

    /// A path's modification time in seconds (the link itself for a link), or nil when there is none.
    private static func modificationTime(_ path: String) -> Int? {
        var status = stat()
        return lstat(path, &status) == 0 ? Int(status.st_mtim.tv_sec) : nil
    }

    /// The identity of a regular file of this user's at `path` (not a link) that no one else
    /// can write; nil otherwise.
    private static func ownFileIdentity(_ path: String) -> FileIdentity? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_uid == geteuid(),
              status.st_mode & 0o022 == 0 else { return nil }
        return FileIdentity(status)
    }

    /// A file's sha256, stored in `folder` under the file's identity, or computed and stored.
    private static func digest(identity: FileIdentity, in folder: String,
                               compute: () -> String?) throws(WeightCacheError) -> String {
        let path = "\(folder)/\(identity.text).sha256"
        if let stored = readSmallFile(path), stored.utf8.count == 64,
           stored.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }) {
            return stored
        }
        guard let digest = compute() else { throw WeightCacheError("cannot read the file to hash it") }
        try writeAtomically(digest, to: path)
        return digest
    }

    /// Up to 256 bytes of a regular file of this user's, or nil.
    private static func readSmallFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_uid == geteuid() else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    private static func writeAtomically(_ text: String, to path: String) throws(WeightCacheError) {
        let temporary = "\(path).\(getpid()).tmp"
        unlink(temporary)
        let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw WeightCacheError(SystemError(errno).reason) }
        do {
            try SystemCall.writeAll(Array(text.utf8), to: descriptor)
        } catch {
            close(descriptor)
            unlink(temporary)
            throw WeightCacheError(error.reason)
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let reason = SystemError(errno).reason
            unlink(temporary)
            throw WeightCacheError(reason)
        }
    }

    /// Makes `path` a folder (0700; its missing parents too when `parents`) and checks that it
    /// is one of this user's that no one else can write.
    private static func makeOwnFolder(_ path: String, parents: Bool) throws(WeightCacheError) {
        if parents {
            var prefix = ""
            for component in path.split(separator: "/").dropLast() {
                prefix += "/" + component
                if mkdir(prefix, 0o700) != 0, errno != EEXIST { throw WeightCacheError("cannot create \(prefix): \(SystemError(errno).reason)") }
            }
        }
        if mkdir(path, 0o700) != 0, errno != EEXIST { throw WeightCacheError("cannot create \(path): \(SystemError(errno).reason)") }
        var status = stat()
        guard lstat(path, &status) == 0 else { throw WeightCacheError("cannot read \(path): \(SystemError(errno).reason)") }
        guard (status.st_mode & S_IFMT) == S_IFDIR, status.st_uid == geteuid(), status.st_mode & 0o022 == 0 else {
            throw WeightCacheError("\(path) is not a folder of this user's that only they can write")
        }
    }
}

/// Which file a path named when it was looked at: a file rewritten, truncated or replaced since
/// differs in at least one of these.
struct FileIdentity {
    let device: UInt64, inode: UInt64, size: Int64
    let modified: timespec, changed: timespec

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = status.st_mtim
        changed = status.st_ctim
    }

    var text: String { "\(device)-\(inode)-\(size)-\(modified.tv_sec).\(modified.tv_nsec)-\(changed.tv_sec).\(changed.tv_nsec)" }
}
