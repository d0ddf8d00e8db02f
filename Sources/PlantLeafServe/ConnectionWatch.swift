import CMicroHTTPD
import Glibc
import PlantLeafCore
import PlantLeafSupport

/// Ends connections that take longer than the limit to send a whole request. The library closes
/// a connection that sends nothing for its idle time, but a client that sends a byte every few
/// seconds is never idle, and would hold its connection (and a place under the connection limit)
/// for as long as it likes. This watch shuts such a socket down from its own thread: the
/// connection's thread then sees the socket end and closes it through the library's normal path.
///
/// It drops a streamed response's client that takes nothing, too: the library's idle limit counts
/// only its own writes, which go on succeeding into the system's buffers long after a viewer has
/// stopped reading, and stop only once those are full, when nothing counts time at all.
final class ConnectionWatch: Sendable {
    private struct Watched {
        var socket: Int32
        /// When the request under way (or the next one's head) must be in; nil once answered.
        var deadline: UInt64?
        /// "POST /api/classify" once the head is in.
        var request: String?
        /// Requests begun on this connection so far.
        var requests = 0
        /// How far the client has taken a streamed response; nil when none is being sent.
        var stream: StreamProgress?
    }

    /// The bytes a streamed response's client had acknowledged, and since when it has taken
    /// none while some were waiting for it.
    private struct StreamProgress {
        var acknowledged: UInt64 = 0
        var since: UInt64
    }

    private struct Watch {
        /// By the library's connection handle, kept as a number: the watch never follows it.
        var watched: [UInt: Watched] = [:]
        var stopping = false
        /// The watch's thread, until `stop` joins it.
        var thread: WorkerThread?
    }

    private let watch = Lock(Watch())
    private let limit: UInt64
    private let streamLimit: UInt64
    /// Called (on the watch's thread, under its lock) just before it shuts a socket down: keep it short.
    private let willShutDown: @Sendable () -> Void
    /// Called (on the watch's thread) for each connection it ended: the request, if its head came.
    private let onDropped: @Sendable (String?) -> Void
    /// Called (on the watch's thread) for each streamed response it ended: the request.
    private let onStalled: @Sendable (String?) -> Void

    /// How often deadlines are looked at: a late client is dropped at most this much after its limit.
    private static let tick: UInt64 = 250_000_000

    /// `limitSeconds` for a whole request; `streamLimitSeconds` for a streamed response's client
    /// to take nothing of what waits for it.
    init(limitSeconds: Double, streamLimitSeconds: Double, willShutDown: @escaping @Sendable () -> Void,
         onDropped: @escaping @Sendable (String?) -> Void, onStalled: @escaping @Sendable (String?) -> Void) throws(ServeError) {
        limit = UInt64(limitSeconds * 1e9)
        streamLimit = UInt64(streamLimitSeconds * 1e9)
        self.willShutDown = willShutDown
        self.onDropped = onDropped
        self.onStalled = onStalled
        do {
            let thread = try WorkerThread { [unowned self] in self.run() }
            watch.withLock { $0.thread = thread }
        } catch {
            throw .cannotStart(reason: "cannot start the thread that drops slow clients: \(error.reason)")
        }
    }

    func opened(_ connection: OpaquePointer, socket: Int32) {
        watch.withLock { $0.watched[key(connection)] = Watched(socket: socket, deadline: MonotonicClock.nanoseconds() + limit) }
    }

    /// A request's head is in: its body must follow within the limit, counted from the connection
    /// opening or the previous request's end. Returns how many requests the connection has begun.
    func requestStarted(_ connection: OpaquePointer, _ request: String) -> Int {
        watch.withLock { watch in
            watch.watched[key(connection)]?.request = request
            watch.watched[key(connection)]?.requests += 1
            return watch.watched[key(connection)]?.requests ?? 1
        }
    }

    /// The request is in whole (or answered before its body): what remains is the server's work
    /// and the client reading the answer, at its own pace.
    func requestIn(_ connection: OpaquePointer) {
        watch.withLock { $0.watched[key(connection)]?.deadline = nil }
    }

    /// A streamed response is queued: from now on its client must keep taking what is sent.
    func streamStarted(_ connection: OpaquePointer) {
        watch.withLock { $0.watched[key(connection)]?.stream = StreamProgress(since: MonotonicClock.nanoseconds()) }
    }

    /// The response went out: the next request on this connection starts its own clock.
    func requestEnded(_ connection: OpaquePointer) {
        watch.withLock { watch in
            watch.watched[key(connection)]?.deadline = MonotonicClock.nanoseconds() + limit
            watch.watched[key(connection)]?.request = nil
            watch.watched[key(connection)]?.stream = nil
        }
    }

    /// Called by the library before it closes the socket, so the watch never touches a
    /// descriptor that may already belong to another connection.
    func closed(_ connection: OpaquePointer) {
        watch.withLock { _ = $0.watched.removeValue(forKey: key(connection)) }
    }

    func stop() {
        let thread: WorkerThread? = watch.withLock { watch in
            watch.stopping = true
            self.watch.signal()
            defer { watch.thread = nil }
            return watch.thread
        }
        thread?.join()
    }

    private func key(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    }

    private func run() {
        while true {
            var dropped: [String?] = []
            var stalled: [String?] = []
            let done: Bool = watch.withLock(waitingUntil: { $0.stopping }, deadline: MonotonicClock.nanoseconds() + ConnectionWatch.tick) { watch in
                if watch.stopping { return true }
                let now = MonotonicClock.nanoseconds()
                for (key, entry) in watch.watched {
                    if let deadline = entry.deadline, now >= deadline {
                        // Under the lock, so the library cannot close and reuse the descriptor meanwhile.
                        willShutDown()
                        shutdown(entry.socket, Int32(SHUT_RDWR))
                        watch.watched[key]?.deadline = nil
                        dropped.append(entry.request)
                    } else if let stream = entry.stream {
                        let progress = streamProgress(entry.socket, was: stream, now: now)
                        guard now - progress.since >= streamLimit else {
                            watch.watched[key]?.stream = progress
                            continue
                        }
                        willShutDown()
                        discardUnsent(entry.socket)
                        shutdown(entry.socket, Int32(SHUT_RDWR))
                        watch.watched[key]?.stream = nil
                        stalled.append(entry.request)
                    }
                }
                return false
            }
            if done { return }
            dropped.forEach(onDropped)
            stalled.forEach(onStalled)
        }
    }

    /// A stream's client is taking it while it acknowledges bytes, or has nothing waiting for it
    /// (the stream is waiting for a frame). A slow client makes progress, however slowly; one
    /// that reads nothing acknowledges nothing once its receive buffer is full.
    private func streamProgress(_ socket: Int32, was stream: StreamProgress, now: UInt64) -> StreamProgress {
        var acknowledged: UInt64 = 0
        var waiting: UInt64 = 0
        // Without the kernel's counts nothing is known: the client is given the benefit of the doubt.
        guard pl_socket_send_progress(socket, &acknowledged, &waiting) == 0 else { return StreamProgress(acknowledged: stream.acknowledged, since: now) }
        if waiting == 0 || acknowledged != stream.acknowledged { return StreamProgress(acknowledged: acknowledged, since: now) }
        return stream
    }

    /// The close that follows resets the connection: what is unsent is thrown away at once
    /// rather than kept by the system, for minutes, for a client that takes nothing.
    private func discardUnsent(_ socket: Int32) {
        var discard = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(socket, SOL_SOCKET, SO_LINGER, &discard, socklen_t(MemoryLayout<linger>.size))
    }
}
