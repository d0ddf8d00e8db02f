import Glibc

/// Which file a path names: its device and inode.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
}

/// The journal's files as the file system sees them: whether the path still names the file
/// this connection has open, and the write-ahead log's share of the size.
extension Journal {
    /// The file `path` names now, nil when it names none.
    static func fileIdentity(_ path: String) -> FileIdentity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    /// Whether the path still names the file this connection opened: false once it was deleted,
    /// or moved away and perhaps replaced (the connection would go on writing into a file no
    /// one will find). One `stat`.
    public var isStillAtPath: Bool { identity != nil && Journal.fileIdentity(path) == identity }

    /// The bytes of the write-ahead log and its index (the -wal and -shm files beside the journal).
    public func writeAheadLogBytes() -> Int64 {
        var total: Int64 = 0
        for suffix in ["-wal", "-shm"] {
            var status = stat()
            if stat(path + suffix, &status) == 0 { total += Int64(status.st_size) }
        }
        return total
    }

    /// The write-ahead log's share of a journal of at most `maxBytes`: an eighth, up to 4 MiB
    /// (SQLite's checkpoint every thousand pages, as it would be without a limit).
    public static func writeAheadLogShare(maxBytes: Int64) -> Int64 { min(maxBytes / 8, 4 << 20) }

    /// Keeps the write-ahead log within its share of `maxBytes`: checkpoints once half of it has
    /// grown, and truncates the file back to the share after each.
    public func boundWriteAheadLog(maxBytes: Int64) throws(JournalError) {
        let share = Journal.writeAheadLogShare(maxBytes: maxBytes)
        let pageSize = try database.integer("PRAGMA page_size", step: "setting the write-ahead log")
        try database.execute("PRAGMA journal_size_limit = \(share); PRAGMA wal_autocheckpoint = \(max(4, share / 2 / max(pageSize, 512)))",
                              step: "setting the write-ahead log")
    }

    /// Copies the write-ahead log into the file this connection has open and empties it: before
    /// the connection closes to open the path again, so a file moved away takes all its readings.
    func checkpoint() throws(JournalError) {
        try database.query("PRAGMA wal_checkpoint(TRUNCATE)", step: "checkpointing the write-ahead log")
    }

    /// Removes the write-ahead log and its index left at `path` when no journal is there any
    /// more: they were the deleted file's (checkpointed into it), and a new file must not take them as its own.
    static func removeOrphanedSideFiles(_ path: String) {
        guard fileIdentity(path) == nil else { return }
        for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
    }

    /// Copies the write-ahead log into the journal and empties it, when it holds more than its
    /// share: the pages retention freed are given back only once they leave the log.
    func checkpointIfOver(maxBytes: Int64) throws(JournalError) {
        guard writeAheadLogBytes() > Journal.writeAheadLogShare(maxBytes: maxBytes) else { return }
        // A reader in the middle of a page keeps part of the log; what it keeps goes at the next.
        try checkpoint()
    }
}
