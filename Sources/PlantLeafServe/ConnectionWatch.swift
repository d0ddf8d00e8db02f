import Glibc
import PlantLeafCore

/// Ends connections that take longer than the limit to send a whole request. The library closes
/// a connection that sends nothing for its idle time, but a client that sends a byte every few
/// seconds is never idle, and would hold its connection (and a place under the connection limit)
/// for as long as it likes. This watch shuts such a socket down from its own thread: the
/// connection's thread then sees the socket end and closes it through the library's normal path.
final class ConnectionWatch: @unchecked Sendable {
    private struct Watched {
        var socket: Int32
        /// When the request under way (or the next one's head) must be in; nil once answered.
        var deadline: UInt64?
        /// "POST /api/classify" once the head is in.
        var request: String?
    }

    private let lock = Lock()
    private var watched: [UnsafeMutableRawPointer: Watched] = [:]
    private let limit: UInt64
    private var stopping = false
    private var thread: WorkerThread?
    /// Called (on the watch's thread, under its lock) just before it shuts a socket down: keep it short.
    private let willShutDown: @Sendable () -> Void
    /// Called (on the watch's thread) for each connection it ended: the request, if its head came.
    private let onDropped: @Sendable (String?) -> Void

    /// How often deadlines are looked at: a late client is dropped at most this much after its limit.
    private static let tick: UInt64 = 250_000_000

    init(limitSeconds: Double, willShutDown: @escaping @Sendable () -> Void,
         onDropped: @escaping @Sendable (String?) -> Void) throws(ServeError) {
        limit = UInt64(limitSeconds * 1e9)
        self.willShutDown = willShutDown
        self.onDropped = onDropped
        do {
            thread = try WorkerThread { [unowned self] in self.run() }
        } catch {
            throw .cannotStart(reason: "cannot start the thread that drops slow clients: \(error.reason)")
        }
    }

    func opened(_ connection: OpaquePointer, socket: Int32) {
        lock.withLock { watched[UnsafeMutableRawPointer(connection)] = Watched(socket: socket, deadline: MonotonicClock.nanoseconds() + limit) }
    }

    /// A request's head is in: its body must follow within the limit, counted from the connection
    /// opening or the previous request's end.
    func requestStarted(_ connection: OpaquePointer, _ request: String) {
        lock.withLock { watched[UnsafeMutableRawPointer(connection)]?.request = request }
    }

    /// The response is queued: what remains is the client reading it, at its own pace.
    func answered(_ connection: OpaquePointer) {
        lock.withLock { watched[UnsafeMutableRawPointer(connection)]?.deadline = nil }
    }

    /// The response went out: the next request on this connection starts its own clock.
    func requestEnded(_ connection: OpaquePointer) {
        lock.withLock {
            watched[UnsafeMutableRawPointer(connection)]?.deadline = MonotonicClock.nanoseconds() + limit
            watched[UnsafeMutableRawPointer(connection)]?.request = nil
        }
    }

    /// Called by the library before it closes the socket, so the watch never touches a
    /// descriptor that may already belong to another connection.
    func closed(_ connection: OpaquePointer) {
        lock.withLock { _ = watched.removeValue(forKey: UnsafeMutableRawPointer(connection)) }
    }

    func stop() {
        lock.withLock {
            stopping = true
            lock.signal()
        }
        thread?.join()
        thread = nil
    }

    private func run() {
        while true {
            var dropped: [String?] = []
            let done: Bool = lock.withLock {
                _ = lock.wait(until: MonotonicClock.nanoseconds() + ConnectionWatch.tick)
                if stopping { return true }
                let now = MonotonicClock.nanoseconds()
                for (key, entry) in watched {
                    guard let deadline = entry.deadline, now >= deadline else { continue }
                    // Under the lock, so the library cannot close and reuse the descriptor meanwhile.
                    willShutDown()
                    shutdown(entry.socket, Int32(SHUT_RDWR))
                    watched[key]?.deadline = nil
                    dropped.append(entry.request)
                }
                return false
            }
            if done { return }
            dropped.forEach(onDropped)
        }
    }
}
