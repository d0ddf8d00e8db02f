/// Every decision of `ConnectionWatch` as a value, time given with each event: which connection
/// is late with its request, which streamed response's client has taken nothing for too long.
/// The watch feeds it the library's notices and, every tick, the time and what the system says of
/// each stream's socket; it shuts down the sockets of the drops it answers. Tests drive it with
/// a clock of their own and no socket.
///
/// - A request must be in whole within `limit` of the connection opening, or of the previous
///   response on it going out, however slowly it trickles in.
/// - A streamed response's client must take some of what waits for it within `streamLimit`: a
///   slow client makes progress, however slowly; one that reads nothing acknowledges nothing once
///   its receive buffer is full. A stream with nothing waiting (waiting for a frame) is not late.
struct ExchangeDeadlines {
    /// A connection to end, and why.
    struct Drop: Equatable {
        enum Reason: Equatable {
            /// The request was not in within the limit.
            case requestLate
            /// The stream's client took nothing of it within the stream limit.
            case streamStalled
        }

        var connection: UInt
        var socket: Int32
        /// "POST /api/classify" once the head is in.
        var request: String?
        var reason: Reason
    }

    /// What the system says of a socket's sending: bytes the client has acknowledged, bytes sent
    /// or queued and not acknowledged yet.
    struct SendProgress: Equatable {
        var acknowledged: UInt64
        var waiting: UInt64
    }

    private struct Watched {
        var socket: Int32
        /// When the request under way (or the next one's head) must be in; nil once answered.
        var deadline: UInt64?
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

    /// By the library's connection handle, kept as a number: nothing here follows it.
    private var watched: [UInt: Watched] = [:]
    private let limit: UInt64
    private let streamLimit: UInt64

    /// `limitSeconds` for a whole request; `streamLimitSeconds` for a streamed response's client
    /// to take nothing of what waits for it.
    init(limitSeconds: Double, streamLimitSeconds: Double) {
        limit = UInt64(limitSeconds * 1e9)
        streamLimit = UInt64(streamLimitSeconds * 1e9)
    }

    mutating func opened(_ connection: UInt, socket: Int32, at now: UInt64) {
        watched[connection] = Watched(socket: socket, deadline: now + limit)
    }

    /// A request's head is in: its body must follow within the limit, counted from the connection
    /// opening or the previous request's end. Returns how many requests the connection has begun.
    mutating func requestStarted(_ connection: UInt, _ request: String) -> Int {
        watched[connection]?.request = request
        watched[connection]?.requests += 1
        return watched[connection]?.requests ?? 1
    }

    /// The request is in whole (or answered before its body): what remains is the server's work
    /// and the client reading the answer, at its own pace.
    mutating func requestIn(_ connection: UInt) {
        watched[connection]?.deadline = nil
    }

    /// A streamed response is queued: from now on its client must keep taking what is sent.
    mutating func streamStarted(_ connection: UInt, at now: UInt64) {
        watched[connection]?.stream = StreamProgress(since: now)
    }

    /// The response went out: the next request on this connection starts its own clock.
    mutating func requestEnded(_ connection: UInt, at now: UInt64) {
        watched[connection]?.deadline = now + limit
        watched[connection]?.request = nil
        watched[connection]?.stream = nil
    }

    /// The library is closing the connection: its socket may soon be another's.
    mutating func closed(_ connection: UInt) {
        watched[connection] = nil
    }

    /// The connections to end at `now`; `progress` reads a stream's socket (nil when the system
    /// cannot say: the client is then given the benefit of the doubt). Each is answered once: a
    /// dropped request's deadline and a dropped stream are forgotten until the connection closes.
    mutating func tick(at now: UInt64, progress: (Int32) -> SendProgress?) -> [Drop] {
        var drops: [Drop] = []
        for (connection, entry) in watched {
            if let deadline = entry.deadline, now >= deadline {
                watched[connection]?.deadline = nil
                drops.append(Drop(connection: connection, socket: entry.socket, request: entry.request, reason: .requestLate))
            } else if let stream = entry.stream {
                let taken = taken(progress(entry.socket), was: stream, now: now)
                guard now - taken.since >= streamLimit else {
                    watched[connection]?.stream = taken
                    continue
                }
                watched[connection]?.stream = nil
                drops.append(Drop(connection: connection, socket: entry.socket, request: entry.request, reason: .streamStalled))
            }
        }
        return drops
    }

    /// A stream's client is taking it while it acknowledges bytes, or has nothing waiting for it.
    private func taken(_ progress: SendProgress?, was stream: StreamProgress, now: UInt64) -> StreamProgress {
        guard let progress else { return StreamProgress(acknowledged: stream.acknowledged, since: now) }
        if progress.waiting == 0 || progress.acknowledged != stream.acknowledged {
            return StreamProgress(acknowledged: progress.acknowledged, since: now)
        }
        return stream
    }
}
