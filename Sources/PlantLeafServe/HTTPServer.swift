import CMicroHTTPD
import Glibc
import PlantLeafCore
import PlantLeafSupport
import Synchronization

/// What a server's owner decides about each request: `admit` sees the head before any body is
/// read and may answer at once (a refusal, or a request without a body); `respond` gets the
/// request with its body read whole. Both run on the connection's own thread, several at once.
public protocol HTTPService: AnyObject, Sendable {
    func admit(_ request: HTTPRequest) -> HTTPResponse?
    func respond(to request: HTTPRequest) -> HTTPResponse
    /// A request that ended without a response the service made (too slow, too large, a broken
    /// form): one line for the log. `requestLine` is "POST /api/classify", nil when not even the
    /// head came whole.
    func refused(_ requestLine: String?, status: Int, reason: String)
}

/// An HTTP server on libmicrohttpd: a thread per connection (so a slow client only ever holds
/// its own), bounded in connections, idle time, request time, header memory and body size.
public final class HTTPServer: Sendable {
    /// The bounds on what clients may take.
    public struct Limits: Sendable {
        /// Connections open at once, each a thread with a small stack: room for a greenhouse's
        /// phones and viewers. How they are shared out among clients is `ConnectionShares`'.
        public var connections = 256
        /// Connections from one address, and from one network (an IPv4 /24, an IPv6 /64: what
        /// one machine or one site can easily have many addresses in).
        public var connectionsPerAddress = 96
        public var connectionsPerNetwork = 128
        /// Connections kept for addresses that hold fewer than `reservedPerAddress`, so a
        /// newcomer gets in while the rest are taken; at most `reservedPerNetwork` of them for one
        /// network. (Two, not one: a client's last connection may not be seen closed yet.)
        public var reservedConnections = 32
        public var reservedPerNetwork = 16
        public var reservedPerAddress = 2
        /// Requests answered on one connection before it is closed (keep-alive, within bounds).
        public var requestsPerConnection = 100
        /// Seconds a connection may send nothing before it is closed.
        public var idleSeconds = 10
        /// Seconds a streamed response's client may take none of what waits for it (a viewer
        /// that stopped reading, or went away without a word) before it is dropped.
        public var stalledStreamSeconds = 10.0
        /// Seconds a request may take from the connection opening (or the previous response) to
        /// the end of its body, however slowly it trickles in.
        public var requestSeconds = 30.0
        /// Bytes of body a request may send.
        public var bodyBytes = 25 << 20
        /// Bytes of bodies held at once, all requests together: four uploads of the largest size.
        /// An upload that would pass it is refused (503) until others are done, so many large
        /// uploads at once cannot take the board's memory.
        public var bodyBytesInFlight = 4 * (25 << 20)

        public init() {}
    }

    public let limits: Limits
    /// The port it listens on (the system's choice when asked for port 0).
    public let port: UInt16

    /// What a running server holds, until `stop`.
    private struct Running {
        var daemon: OpaquePointer
        var logSink: UnsafeMutablePointer<PLHTTPLogSink>
        /// The callbacks' context, kept until the daemon has stopped.
        var context: ServerContext
    }

    private let running: Mutex<Running?>

    /// Loads libmicrohttpd.
    ///
    /// - Throws: `ServeError.libraryMissing` when it is not installed, `.libraryUnusable` when it
    ///   lacks an entry point.
    public static func loadLibrary() throws(ServeError) {
        var detail = [CChar](repeating: 0, count: 512)
        let state = pl_microhttpd_load(PL_MICROHTTPD_SONAME, &detail, detail.count)
        switch LibraryLoad(state: state, detail: detail, library: PL_MICROHTTPD_SONAME) {
        case .loaded: return
        case .notOpened(let reason): throw .libraryMissing(reason: reason)
        case .unusable(let reason): throw .libraryUnusable(reason: reason)
        }
    }

    /// Listens on `address` and serves until `stop`. `log` gets the library's own complaints.
    ///
    /// - Throws: `ServeError` when the library is missing, HTTPS is asked of a build without
    ///   it, or the address cannot be listened on.
    public init(address: ListenAddress, limits: Limits, tls: (key: String, certificate: String)?, service: any HTTPService,
                log: @escaping @Sendable (String) -> Void) throws(ServeError) {
        try HTTPServer.loadLibrary()
        if tls != nil && pl_http_supports_tls() == 0 {
            throw .tlsUnsupported
        }
        self.limits = limits
        let sink = UnsafeMutablePointer<PLHTTPLogSink>.allocate(capacity: 1)
        var started: OpaquePointer?
        var port: UInt16 = 0
        let box = try ServerContext(service: service, limits: limits)
        sink.initialize(to: PLHTTPLogSink(log: { context, line in
            guard let context, let line else { return }
            Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue().libraryLog.add(String(cString: line))
        }, context: Unmanaged.passUnretained(box).toOpaque()))
        let handlerContext = Unmanaged.passUnretained(box).toOpaque()
        address.withSocketAddress { socketAddress in
            var settings = PLHTTPSettings(address: socketAddress, connection_limit: UInt32(limits.connections),
                                          per_address_limit: 0,
                                          idle_timeout_seconds: UInt32(limits.idleSeconds),
                                          connection_memory: 64 << 10, thread_stack_size: 512 << 10,
                                          tls_key_pem: nil, tls_certificate_pem: nil,
                                          handler: HTTPServer.handle, handler_context: handlerContext,
                                          completed: HTTPServer.completed, connection_notify: HTTPServer.connectionChanged,
                                          accept_policy: HTTPServer.acceptPolicy, log_sink: sink)
            if let tls {
                tls.key.withCString { key in
                    tls.certificate.withCString { certificate in
                        settings.tls_key_pem = key
                        settings.tls_certificate_pem = certificate
                        started = pl_http_start(&settings)
                    }
                }
            } else {
                started = pl_http_start(&settings)
            }
            if let started { port = pl_http_bound_port(started) }
        }
        guard let started else {
            sink.deallocate()
            box.watch.stop()
            // The library's errno after a failed start is not reliably the bind's (1.0 closes
            // the socket first), so the address is tried again here to say why: in use, a port
            // below 1024 without root, an address not this machine's. If it binds, the failure
            // was the library's own (a TLS key that does not fit its certificate).
            let code = address.bindError()
            if code == EADDRINUSE { throw .addressInUse(address: address.description) }
            let reason = code != 0 ? SystemError(code).reason : box.libraryLog.startupLines.last ?? "the HTTP library refused to start"
            throw .cannotListen(address: address.description, reason: reason)
        }
        box.libraryLog.started(log: log)
        self.port = port
        running = Mutex(Running(daemon: started, logSink: sink, context: box))
    }

    deinit { stop() }

    /// Stops listening, ends every connection and waits for their threads.
    public func stop() {
        running.withLock { running in
            guard let stopping = running else { return }
            pl_MHD_stop_daemon(stopping.daemon)
            stopping.context.watch.stop()
            stopping.logSink.deallocate()
            running = nil
        }
    }

    // MARK: the library's callbacks

    private static let handle: PLHTTPAccessHandler = { context, connection, url, method, _, upload, uploadSize, requestContext in
        guard let context, let connection, let url, let method, let uploadSize, let requestContext else { return kPLHTTPNo }
        let server = Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue()
        if requestContext.pointee == nil {
            let exchange = Exchange(request: server.head(connection: connection, method: String(cString: method), path: String(cString: url)))
            requestContext.pointee = Unmanaged.passRetained(exchange).toOpaque()
            let count = server.watch.requestStarted(connection, exchange.request.line)
            exchange.lastOnConnection = count >= server.limits.requestsPerConnection
            if let response = server.service.admit(exchange.request) {
                exchange.answered = true
                // Queued now, before the body, the library closes the connection after it (the
                // body is left unread). Without a body it waits for the next call, so the
                // connection stays open for the client's next request.
                if exchange.request.hasBody { return server.queue(response, for: exchange, on: connection) }
                exchange.pending = response
                return kPLHTTPYes
            }
            // A declared length that would not fit beside the bodies held now is refused from the
            // head, where an answer can still be sent. Nothing is set aside for it: a client that
            // announces a body and sends none of it holds no part of the budget.
            if let length = exchange.request.declaredLength, !server.wouldFit(Int(clamping: length)) {
                exchange.answered = true
                return server.refuse(exchange, 503, reason: server.bodiesHeldReason, on: connection)
            }
            // Only multipart is handed to the library's form reader: a urlencoded body (the sign-in's,
            // a few KiB at most) is kept whole and read for its one field.
            if exchange.request.mediaType == "multipart/form-data" {
                exchange.form = pl_MHD_create_post_processor(connection, 64 << 10, HTTPServer.formPiece,
                                                            Unmanaged.passUnretained(exchange).toOpaque())
                if exchange.form == nil {
                    exchange.answered = true
                    return server.refuse(exchange, 400, reason: "a form without a boundary or with an unknown encoding", on: connection)
                }
            }
            // A declared length is what the body will be (the library reads no more): room for it
            // at once, rather than doubling copies as it grows.
            if exchange.form == nil, let length = exchange.request.declaredLength, length <= UInt64(server.limits.bodyBytes) {
                exchange.request.body.reserveCapacity(Int(length))
            }
            return kPLHTTPYes
        }
        let exchange = Unmanaged<Exchange>.fromOpaque(requestContext.pointee!).takeUnretainedValue()
        if let pending = exchange.pending {
            exchange.pending = nil
            return server.queue(pending, for: exchange, on: connection)
        }
        if exchange.answered {
            // The response is queued; what is still arriving of the body is dropped.
            uploadSize.pointee = 0
            return kPLHTTPYes
        }
        let count = uploadSize.pointee
        if count > 0, let upload {
            uploadSize.pointee = 0
            guard server.reserve(count) else {
                exchange.answered = true
                return server.refuse(exchange, 503, reason: server.bodiesHeldReason, on: connection)
            }
            exchange.received += count
            if exchange.received > server.limits.bodyBytes {
                exchange.answered = true
                return server.refuse(exchange, 413, reason: "the body is over the \(FileReader.sizeText(server.limits.bodyBytes)) limit",
                                     on: connection)
            }
            if let form = exchange.form {
                if pl_MHD_post_process(form, upload, count) != kPLHTTPYes {
                    exchange.answered = true
                    return server.refuse(exchange, 400, reason: "the form is broken (multipart/form-data or urlencoded)", on: connection)
                }
            } else {
                exchange.request.body.append(contentsOf: UnsafeRawBufferPointer(start: upload, count: count))
            }
            return kPLHTTPYes
        }
        // The whole body is in: the client has done its part, and the time the answer takes (a
        // wait for a model instance) no longer counts against it.
        exchange.answered = true
        server.watch.requestIn(connection)
        if let form = exchange.form {
            exchange.form = nil
            if pl_MHD_destroy_post_processor(form) != kPLHTTPYes {
                return server.refuse(exchange, 400, reason: "the form ends before its closing boundary", on: connection)
            }
        }
        return server.queue(server.service.respond(to: exchange.request), for: exchange, on: connection)
    }

    private static let acceptPolicy: PLHTTPAcceptPolicy = { context, address, length in
        guard let context, let address, let client = ClientAddress(address, length: length) else { return kPLHTTPYes }
        let server = Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue()
        return server.shares.admits(client) ? kPLHTTPYes : kPLHTTPNo
    }

    private static let connectionChanged: PLHTTPConnectionNotify = { context, connection, _, code in
        guard let context, let connection else { return }
        let server = Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue()
        if code == kPLHTTPConnectionStarted {
            let socket = pl_http_connection_socket(connection)
            server.watch.opened(connection, socket: socket)
            if let client = ClientAddress(peerOf: socket) { server.shares.opened(connection, from: client) }
        } else {
            server.watch.closed(connection)
            server.shares.closed(connection)
        }
    }

    private static let completed: PLHTTPCompletedHandler = { context, connection, requestContext, termination in
        if let context, let connection { Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue().watch.requestEnded(connection) }
        guard let requestContext, let pointer = requestContext.pointee else { return }
        let exchange = Unmanaged<Exchange>.fromOpaque(pointer).takeRetainedValue()
        requestContext.pointee = nil
        if let form = exchange.form { _ = pl_MHD_destroy_post_processor(form) }
        guard let context else { return }
        let server = Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue()
        server.release(exchange.received)
        if termination == kPLHTTPTimedOut, !exchange.answered {
            server.service.refused(exchange.request.line, status: 408, reason: "the client sent nothing for \(server.limits.idleSeconds) s")
        }
    }

    private static let formPiece: PLHTTPPostIterator = { context, _, key, fileName, _, _, data, _, size in
        guard let context, let key else { return kPLHTTPNo }
        let exchange = Unmanaged<Exchange>.fromOpaque(context).takeUnretainedValue()
        let name = String(cString: key)
        if exchange.request.fields[name] == nil {
            var field = FormField(bytes: [], fileName: fileName.map { String(cString: $0) })
            // The first file of a form is the upload: room for the rest of the declared body at
            // once (pages the file never fills are never touched), instead of copies that double.
            if field.fileName != nil, !exchange.fileReserved, let length = exchange.request.declaredLength {
                field.bytes.reserveCapacity(max(0, Int(clamping: length) - exchange.received + size))
                exchange.fileReserved = true
            }
            exchange.request.fields[name] = field
        }
        // Appended where it lies: a copy taken out and put back would copy the whole field for
        // every piece, quadratic in its length and twice its size at once.
        if size > 0, let data { exchange.request.fields[name]!.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size)) }
        return kPLHTTPYes
    }
}

/// One request on its way through the callbacks.
private final class Exchange {
    var request: HTTPRequest
    var received = 0
    var form: OpaquePointer?
    /// A response is queued: the rest of the body is not read.
    var answered = false
    /// The answer to a request without a body, queued on the library's next call.
    var pending: HTTPResponse?
    /// The connection has had its share of requests: this answer closes it.
    var lastOnConnection = false
    /// Room for a form's file has been set aside (once per request).
    var fileReserved = false

    init(request: HTTPRequest) { self.request = request }
}

/// A streamed body, held by the library for as long as its response lives.
private final class StreamBox {
    let stream: any HTTPBodyStream
    init(_ stream: any HTTPBodyStream) { self.stream = stream }
}

/// What the library's callbacks reach through their context pointer.
private final class ServerContext: Sendable {
    let service: any HTTPService
    let limits: HTTPServer.Limits
    let watch: ConnectionWatch
    let shares: ConnectionShares
    let libraryLog = LibraryLog()
    /// Body bytes held by requests under way, all together.
    private let bodyBytesHeld = Mutex(0)

    init(service: any HTTPService, limits: HTTPServer.Limits) throws(ServeError) {
        self.service = service
        self.limits = limits
        shares = ConnectionShares(limits: limits)
        let libraryLog = libraryLog
        watch = try ConnectionWatch(limitSeconds: limits.requestSeconds, streamLimitSeconds: limits.stalledStreamSeconds, willShutDown: {
            libraryLog.expectDropClosing()
        }, onDropped: { request in
            // The watch shut a connection down: a request was under way (its head in), or only its head was.
            service.refused(request, status: 408, reason: "dropped: the request was not in within \(JSONObject.number(limits.requestSeconds, decimals: 1)) s")
        }, onStalled: { request in
            service.refused(request, status: 408, reason: "dropped: the client took nothing of the stream for \(JSONObject.number(limits.stalledStreamSeconds, decimals: 1)) s")
        })
    }

    /// Counts `count` more body bytes as held; false (and nothing counted) when that would pass
    /// the limit on bodies held at once.
    func reserve(_ count: Int) -> Bool {
        bodyBytesHeld.withLock { held in
            guard held + count <= limits.bodyBytesInFlight else { return false }
            held += count
            return true
        }
    }

    /// Whether `count` more body bytes would fit beside those held now (nothing is counted).
    func wouldFit(_ count: Int) -> Bool {
        bodyBytesHeld.withLock { count <= limits.bodyBytesInFlight - $0 }
    }

    var bodiesHeldReason: String {
        "uploads in progress already hold \(FileReader.sizeText(limits.bodyBytesInFlight)): try again in a moment"
    }

    /// A request's body is gone.
    func release(_ count: Int) {
        bodyBytesHeld.withLock { $0 -= count }
    }

    func head(connection: OpaquePointer, method: String, path: String) -> HTTPRequest {
        var headers: [String: String] = [:]
        for name in HTTPRequest.keptHeaders {
            if let value = pl_MHD_lookup_connection_value(connection, kPLHTTPHeaderKind, name) { headers[name] = String(cString: value) }
        }
        var request = HTTPRequest(method: method, path: path, headers: headers)
        for name in HTTPRequest.keptQueryNames {
            if let value = pl_MHD_lookup_connection_value(connection, kPLHTTPQueryKind, name) { request.query[name] = String(cString: value) }
        }
        request.localPort = ClientAddress.localPort(of: pl_http_connection_socket(connection))
        return request
    }

    func refuse(_ exchange: Exchange, _ status: Int, reason: String, on connection: OpaquePointer) -> Int32 {
        service.refused(exchange.request.line, status: status, reason: reason)
        var response = HTTPResponse.error(status, reason)
        // A refusal from the head leaves the body unread, so the connection cannot be reused: say
        // so. (Mid-body the library takes no response at all and closes the connection.)
        response.headers.append(("Connection", "close"))
        let queued = queue(response, for: exchange, on: connection)
        if queued != kPLHTTPYes { libraryLog.expectRefusalClosing() }
        return queued
    }

    static let readStream: PLHTTPContentReader = { context, _, buffer, max in
        guard let context, let buffer else { return Int(kPLHTTPReaderError) }
        let box = Unmanaged<StreamBox>.fromOpaque(context).takeUnretainedValue()
        guard let count = box.stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max)) else { return Int(kPLHTTPReaderEnd) }
        return count
    }

    static let releaseStream: PLHTTPContentReaderFree = { context in
        guard let context else { return }
        Unmanaged<StreamBox>.fromOpaque(context).release()
    }

    func queue(_ response: HTTPResponse, for exchange: Exchange, on connection: OpaquePointer) -> Int32 {
        var response = response
        if exchange.lastOnConnection, !response.headers.contains(where: { $0.name == "Connection" }) {
            response.headers.append(("Connection", "close"))
        }
        let made: OpaquePointer?
        if let stream = response.stream {
            made = pl_MHD_create_response_from_callback(UInt64.max, 32 << 10, ServerContext.readStream,
                                                        Unmanaged.passRetained(StreamBox(stream)).toOpaque(), ServerContext.releaseStream)
        } else {
            var body = response.body
            made = body.withUnsafeMutableBytes { bytes in
                pl_MHD_create_response_from_buffer(bytes.count, bytes.baseAddress, kPLHTTPCopyBuffer)
            }
        }
        guard let made else { return kPLHTTPNo }
        for header in response.headers { _ = pl_MHD_add_response_header(made, header.name, header.value) }
        let queued = pl_MHD_queue_response(connection, UInt32(response.status), made)
        watch.requestIn(connection)
        if response.stream != nil, queued == kPLHTTPYes { watch.streamStarted(connection) }
        pl_MHD_destroy_response(made)
        return queued
    }
}

/// The library's own lines: kept until the daemon has started, then passed to the server's log,
/// less those that only repeat what a refusal's or a drop's line has said.
final class LibraryLog: Sendable {
    private struct Lines {
        /// Until the daemon has started, the library's lines are kept: a failure to start is then
        /// said once, as the error; afterwards they go to the log.
        var startupLines: [String] = []
        var log: (@Sendable (String) -> Void)?
        /// Connections refused mid-body whose closing the library is still to report: it takes no
        /// response once a body is under way, so it closes the connection and says that the
        /// application failed, which for these is not news (the refusal has its own line).
        var refusalsClosing = 0
        /// Until when the library's report of each connection the watch shut down is expected: the
        /// drop has its own line, and the library's says only that the socket ended. A connection
        /// that never sent a byte ends without a report, so each expectation lapses after a while
        /// rather than hiding the report of some later client that really went away.
        var dropsClosing: [UInt64] = []
    }

    private static let closingLine = "Application reported internal error, closing connection."
    private static let dropClosingLine = "Connection socket is closed when reading request"
    private static let dropClosingWait: UInt64 = 5_000_000_000

    private let lines = Mutex(Lines())
    /// The library repeats itself under a flood (a line per refused connection): each line is
    /// its own kind, written a few times a window.
    private let throttle: LogThrottle
    private let clock: any MonotonicTimeSource

    init(clock: any MonotonicTimeSource = SystemMonotonicTime()) {
        self.clock = clock
        throttle = LogThrottle(clock: clock)
    }

    var startupLines: [String] { lines.withLock { $0.startupLines } }

    func add(_ line: String) {
        lines.withLock { lines in
            if lines.refusalsClosing > 0, line.hasPrefix(Self.closingLine) {
                lines.refusalsClosing -= 1
                return
            }
            let now = clock.nanoseconds()
            lines.dropsClosing.removeAll { $0 < now }
            if !lines.dropsClosing.isEmpty, line.hasPrefix(Self.dropClosingLine) {
                lines.dropsClosing.removeFirst()
                return
            }
            guard let log = lines.log else {
                lines.startupLines.append(line)
                return
            }
            if let shown = throttle.admit(line, kind: line) { log(shown) }
        }
    }

    func started(log: @escaping @Sendable (String) -> Void) {
        lines.withLock { lines in
            lines.startupLines.forEach(log)
            lines.startupLines = []
            lines.log = log
        }
    }

    /// A connection refused mid-body is closing.
    func expectRefusalClosing() {
        lines.withLock { $0.refusalsClosing += 1 }
    }

    /// The watch is about to shut a connection down.
    func expectDropClosing() {
        lines.withLock { $0.dropsClosing.append(clock.nanoseconds() + Self.dropClosingWait) }
    }
}
