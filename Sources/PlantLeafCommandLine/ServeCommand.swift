import Glibc
import PlantLeafCamera
import PlantLeafCore
import PlantLeafServe

/// `plantleaf serve`.
public struct ServeOptions: Sendable {
    public var help = false
    public var listen = ListenAddress(parsing: "127.0.0.1:8080")!
    public var tokenFile: String?
    public var tlsCertificateFile: String?
    public var tlsKeyFile: String?
    public var maxUploadBytes = 25 << 20
    public var requestSeconds = HTTPServer.Limits().requestSeconds
    public var topK = 3
    public var threads = 1
    /// nil: one per core, divided by --threads.
    public var jobs: Int?
    public var modelPath: String?
    public var labelsPath: String?
    public var noCache = false
    /// --checks and --min-score, for uploads (the camera reads them with its own default checks).
    public var verdictPolicy = VerdictPolicy(checks: .classifyDefault)
    /// The camera monitor's options, when --device or --input names a camera.
    public var camera: CameraCommandOptions?

    /// serve's arguments, range-checked.
    /// - Throws: `UsageError` for an unknown option, a value out of range, or options that do not go together.
    public static func parse(_ arguments: [String]) throws(UsageError) -> ServeOptions {
        let parsed = try Arguments(arguments, options: optionTable)
        var options = ServeOptions()
        if parsed.has("--help") {
            options.help = true
            return options
        }
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
        if let text = parsed.string("--listen") {
            guard let address = ListenAddress(parsing: text) else {
                throw UsageError("--listen must be an IP address and a port, as 127.0.0.1:8080, 0.0.0.0:8080 or [::]:8080, got '\(text)'")
            }
            options.listen = address
        }
        options.tokenFile = parsed.string("--token-file")
        options.tlsCertificateFile = parsed.string("--tls-cert")
        options.tlsKeyFile = parsed.string("--tls-key")
        if (options.tlsCertificateFile == nil) != (options.tlsKeyFile == nil) {
            throw UsageError("--tls-cert and --tls-key go together")
        }
        options.maxUploadBytes = try parsed.integer("--max-upload", default: options.maxUploadBytes >> 20, range: uploadMebibytes) << 20
        options.requestSeconds = try parsed.double("--request-timeout", range: requestSeconds) ?? options.requestSeconds
        options.topK = try parsed.integer("--top-k", default: options.topK, range: OptionRange.topK)
        options.threads = try parsed.integer("--threads", default: options.threads, range: OptionRange.threads)
        if parsed.string("--jobs") != nil { options.jobs = try parsed.integer("--jobs", default: 1, range: OptionRange.jobs) }
        options.modelPath = parsed.string("--model")
        options.labelsPath = parsed.string("--labels")
        options.noCache = parsed.has("--no-cache")
        options.verdictPolicy = try parsed.verdictPolicy(defaultChecks: .classifyDefault)
        options.camera = try cameraOptions(parsed)
        return options
    }

    /// The camera's options, parsed as `camera` parses them (the same ranges, the same checks
    /// of what goes together) from the camera options given and those serve shares with it.
    private static func cameraOptions(_ parsed: Arguments) throws(UsageError) -> CameraCommandOptions? {
        guard parsed.string("--device") != nil || parsed.string("--input") != nil else {
            if let option = cameraOptionNames.first(where: { parsed.string($0) != nil || parsed.has($0) }) {
                throw UsageError("\(option) is a camera option: give --device PATH or --input FILE|- too")
            }
            return nil
        }
        var arguments: [String] = []
        for option in CameraCommandOptions.optionTable where cameraOptionNames.contains(option.name) || sharedOptionNames.contains(option.name) {
            if let value = parsed.string(option.name) {
                arguments += [option.name, value]
            } else if parsed.has(option.name) {
                arguments.append(option.name)
            }
        }
        return try CameraCommandOptions.parse(arguments)
    }
}

/// `plantleaf serve`: the page, the JSON API and the metrics over HTTP, until SIGINT or SIGTERM.
enum ServeCommand {
    private static let helpIntroduction = """
        USAGE: plantleaf serve [options]

        Serves a page to classify leaf photos from a phone or any browser (take a photo or pick
        one), and a JSON API: POST /api/classify (the image as the body, or form field 'image'),
        GET /api/health, and GET /metrics in Prometheus's text format (docs/serve.md). Results
        are classify --format json's. Uploads are never written to disk; the page makes no
        request outside this server.

        With --device or --input it also runs the camera monitor as `plantleaf camera` does
        (--every, --log, --mqtt ... behave the same) and shows it live at /live: the newest
        reading (GET /api/latest, camera's JSON record), its frame (/snapshot.jpg) and every
        frame as a motion-JPEG stream (/stream.mjpg).

        OPTIONS:
        """

    private static let helpConclusion = """
        Runs until SIGINT or SIGTERM. One line on stderr per refused request.

        EXIT CODES: 0 stopped by a signal, 1 the camera failed mid-run (as camera's 1), 2 usage, model,
        runtime, library, address or camera set-up error.
        """

    static let help: String = {
        let options: String = OptionSpec.helpSection(ServeOptions.optionTable, labelWidth: 21)
        return [helpIntroduction, options, "", helpConclusion].joined(separator: "\n")
    }()

    static func run(_ arguments: [String]) -> Int32 {
        let options: ServeOptions
        do {
            options = try ServeOptions.parse(arguments)
        } catch {
            Console.error("plantleaf serve: \(error) (see plantleaf serve --help)")
            return ExitCode.setupFailure
        }
        if options.help {
            Console.out(help)
            return ExitCode.success
        }
        // Blocked before any thread starts, so every thread inherits the mask and the signals
        // reach only the sigwait below. SIGUSR1 is the camera thread saying its run failed.
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in [SIGINT, SIGTERM, SIGUSR1] { sigaddset(&signals, number) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        var monitor: CameraMonitor?
        if let camera = options.camera {
            guard var made = CameraMonitor(camera, command: "plantleaf serve") else { return ExitCode.setupFailure }
            made.keepModelInput()
            monitor = made
        }
        let feed = monitor == nil ? nil : LiveFeed()
        let server: HTTPServer, jobs: Int
        do {
            try HTTPServer.loadLibrary()
            let token = try options.tokenFile.map { path throws(ServeError) in try AccessToken(file: path) }
            let tls = try tlsFiles(options)
            jobs = options.jobs ?? BatchClassifier.defaultJobs(inputs: Int.max, threads: options.threads)
            let classifierOptions = ProjectPaths.classifierOptions(modelPath: options.modelPath, labelsPath: options.labelsPath,
                                                                   threads: options.threads, verdictPolicy: options.verdictPolicy,
                                                                   weightCache: !options.noCache)
            var classifiers: [Classifier] = []
            for _ in 0..<jobs { classifiers.append(try Classifier(options: classifierOptions)) }
            var limits = HTTPServer.Limits()
            limits.bodyBytes = options.maxUploadBytes
            limits.bodyBytesInFlight = 4 * options.maxUploadBytes
            limits.requestSeconds = options.requestSeconds
            let service = WebService(classifiers: classifiers, topK: options.topK, token: token, bodyLimit: options.maxUploadBytes,
                                     feed: feed, history: options.camera?.logPath.map { ReadingHistory(logPath: $0) }, log: { line in Console.error("plantleaf serve: \(line)") })
            server = try HTTPServer(address: options.listen, limits: limits, tls: tls, service: service,
                                    log: { line in Console.error("plantleaf serve: libmicrohttpd: \(line)") })
            if !options.listen.isLoopback && token == nil {
                Console.error("plantleaf serve: warning: listening on \(options.listen) without --token-file: anyone on the network can use it")
            }
        } catch {
            Console.error("plantleaf serve: \(Remedy.line(error))")
            return ExitCode.setupFailure
        }
        let scheme = options.tlsCertificateFile == nil ? "http" : "https"
        let host = options.listen.description.dropLast(String(options.listen.port).count + 1)
        Console.error("plantleaf serve: listening on \(scheme)://\(host):\(server.port)/ (\(jobs) model instance\(jobs == 1 ? "" : "s"), "
            + "uploads up to \(options.maxUploadBytes >> 20) MiB)")
        var camera: CameraThread?
        if let monitor, let feed {
            do {
                camera = try CameraThread(monitor: monitor, feed: feed)
            } catch {
                Console.error("plantleaf serve: cannot start the camera thread: \(error.reason)")
                server.stop()
                return ExitCode.setupFailure
            }
        }
        var received: Int32 = 0
        sigwait(&signals, &received)
        // The camera first (its reading in progress finishes), then the viewers waiting for its
        // next frame, then the server with its connections.
        monitor?.session.stop()
        let cameraStatus = camera?.join()
        feed?.close()
        server.stop()
        if received == SIGUSR1 { return cameraStatus ?? ExitCode.setupFailure }
        Console.error("plantleaf serve: stopped by \(received == SIGINT ? "SIGINT" : "SIGTERM")")
        return ExitCode.success
    }

    /// The certificate and key as PEM text, read now so a wrong path is a set-up error.
    private static func tlsFiles(_ options: ServeOptions) throws(ServeError) -> (key: String, certificate: String)? {
        guard let certificatePath = options.tlsCertificateFile, let keyPath = options.tlsKeyFile else { return nil }
        func pem(_ path: String, _ what: String) throws(ServeError) -> String {
            do {
                return String(decoding: try FileReader.readAll(path: path, maximumSize: 1 << 20), as: UTF8.self)
            } catch {
                throw .unusableFile(path: path, what: what, reason: error.reason)
            }
        }
        return (key: try pem(keyPath, "TLS key"), certificate: try pem(certificatePath, "TLS certificate"))
    }
}

/// The camera monitor on a thread of its own beside the server. A run that ends well (an --input
/// stream's end) leaves the server serving its last reading; one that fails wakes the main
/// thread's sigwait with SIGUSR1, so serve ends with the camera's status.
private final class CameraThread: @unchecked Sendable {
    private var thread: WorkerThread?
    private var status: Int32 = ExitCode.success

    init(monitor: CameraMonitor, feed: LiveFeed) throws(ThreadStartError) {
        let main = pthread_self()
        thread = try WorkerThread { [self] in
            let status = monitor.run(output: .none) { record, frame in
                feed.publish(record, frameJPEG: frame)
            }
            feed.streamEnded()
            self.status = status
            if status != ExitCode.success { pthread_kill(main, SIGUSR1) }
        }
    }

    /// Waits for the run to end; its exit status.
    func join() -> Int32 {
        thread?.join()
        thread = nil
        return status
    }
}
