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
    private struct Watch {
        var deadlines: ExchangeDeadlines
        var stopping = false
        /// The watch's thread, until `stop` joins it.
        var thread: WorkerThread?
    }

    private let watch: Lock<Watch>
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
        watch = Lock(Watch(deadlines: ExchangeDeadlines(limitSeconds: limitSeconds, streamLimitSeconds: streamLimitSeconds)))
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
        watch.withLock { $0.deadlines.opened(key(connection), socket: socket, at: MonotonicClock.nanoseconds()) }
    }

    /// See `ExchangeDeadlines.requestStarted`.
    func requestStarted(_ connection: OpaquePointer, _ request: String) -> Int {
        watch.withLock { $0.deadlines.requestStarted(key(connection), request) }
    }

    func requestIn(_ connection: OpaquePointer) {
        watch.withLock { $0.deadlines.requestIn(key(connection)) }
    }

    func streamStarted(_ connection: OpaquePointer) {
        watch.withLock { $0.deadlines.streamStarted(key(connection), at: MonotonicClock.nanoseconds()) }
    }

    func requestEnded(_ connection: OpaquePointer) {
        watch.withLock { $0.deadlines.requestEnded(key(connection), at: MonotonicClock.nanoseconds()) }
    }

    /// Called by the library before it closes the socket, so the watch never touches a
    /// descriptor that may already belong to another connection.
    func closed(_ connection: OpaquePointer) {
        watch.withLock { $0.deadlines.closed(key(connection)) }
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
            let drops: [ExchangeDeadlines.Drop]? = watch.withLock(waitingUntil: { $0.stopping }, deadline: MonotonicClock.nanoseconds() + ConnectionWatch.tick) { watch in
                if watch.stopping { return nil }
                let drops = watch.deadlines.tick(at: MonotonicClock.nanoseconds(), progress: ConnectionWatch.sendProgress)
                // Under the lock, so the library cannot close and reuse a descriptor meanwhile.
                for drop in drops {
                    willShutDown()
                    if drop.reason == .streamStalled { discardUnsent(drop.socket) }
                    shutdown(drop.socket, Int32(SHUT_RDWR))
                }
                return drops
            }
            guard let drops else { return }
            for drop in drops {
                switch drop.reason {
                case .requestLate: onDropped(drop.request)
                case .streamStalled: onStalled(drop.request)
                }
            }
        }
    }

    /// The kernel's counts of what the socket's client has acknowledged and what waits for it.
    private static func sendProgress(_ socket: Int32) -> ExchangeDeadlines.SendProgress? {
        var acknowledged: UInt64 = 0
        var waiting: UInt64 = 0
        guard pl_socket_send_progress(socket, &acknowledged, &waiting) == 0 else { return nil }
        return ExchangeDeadlines.SendProgress(acknowledged: acknowledged, waiting: waiting)
    }

    /// The close that follows resets the connection: what is unsent is thrown away at once
    /// rather than kept by the system, for minutes, for a client that takes nothing.
    private func discardUnsent(_ socket: Int32) {
        var discard = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(socket, SOL_SOCKET, SO_LINGER, &discard, socklen_t(MemoryLayout<linger>.size))
    }
}
