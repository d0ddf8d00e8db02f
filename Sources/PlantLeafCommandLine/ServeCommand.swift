import Glibc
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
        return options
    }
}

/// `plantleaf serve`: the page, the JSON API and the metrics over HTTP, until SIGINT or SIGTERM.
enum ServeCommand {
    private static let helpIntroduction = """
        USAGE: plantleaf serve [options]

        Serves a page to classify leaf photos from a phone or any browser (take a photo or pick
        one), and a JSON API: POST /api/classify (the image as the body, or form field 'image'),
        GET /api/health, and GET /metrics in Prometheus's text format (docs/serve.md). Results
        are classify --format json's. Nothing is written to disk; the page makes no request
        outside this server.

        OPTIONS:
        """

    private static let helpConclusion = """
        Runs until SIGINT or SIGTERM. One line on stderr per refused request.

        EXIT CODES: 0 stopped by a signal, 2 usage, model, runtime, library or address error.
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
        // reach only the sigwait below.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let server: HTTPServer, jobs: Int
        do {
            try HTTPServer.loadLibrary()
            let token = try options.tokenFile.map { path throws(ServeError) in try AccessToken(file: path) }
            let tls = try tlsFiles(options)
            jobs = options.jobs ?? BatchClassifier.defaultJobs(inputs: Int.max, threads: options.threads)
            let classifierOptions = ProjectPaths.classifierOptions(modelPath: options.modelPath, labelsPath: options.labelsPath,
                                                                   threads: options.threads, weightCache: !options.noCache)
            var classifiers: [Classifier] = []
            for _ in 0..<jobs { classifiers.append(try Classifier(options: classifierOptions)) }
            var limits = HTTPServer.Limits()
            limits.bodyBytes = options.maxUploadBytes
            limits.requestSeconds = options.requestSeconds
            let service = WebService(classifiers: classifiers, topK: options.topK, token: token, bodyLimit: options.maxUploadBytes,
                                     log: { line in Console.error("plantleaf serve: \(line)") })
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
        var received: Int32 = 0
        sigwait(&signals, &received)
        server.stop()
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
