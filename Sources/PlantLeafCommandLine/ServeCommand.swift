import Glibc
import PlantLeafCamera
import PlantLeafCore
import PlantLeafServe
import PlantLeafSupport
import Synchronization

/// `plantleaf serve`: the page, the JSON API and the metrics over HTTP, until SIGINT or SIGTERM.
enum ServeCommand: Subcommand {
    static let configuration = CommandConfiguration(
        name: "serve", abstract: "a page and JSON API to classify photos from a phone's browser",
        options: ServeOptions.optionTable, helpLabelWidth: 21)

    static let helpIntroduction = """
        USAGE: plantleaf serve [options]

        Serves a page to classify leaf photos from a phone or any browser (take a photo or pick
        one), and a JSON API: POST /api/classify (the image as the body, or form field 'image'),
        GET /api/health, and GET /metrics in Prometheus's text format (docs/serve.md). Results
        are classify --format json's, kept in the journal; the uploaded files are never written
        to disk (--keep-upload-photos keeps a small copy of each); the page makes no request
        outside this server.

        With --device or --input it also runs the camera monitor as `plantleaf camera` does
        (--every, --log, --mqtt ... behave the same) and shows it live at /live: the newest
        reading (GET /api/latest, camera's JSON record), its frame (/snapshot.jpg) and every
        frame as a motion-JPEG stream (/stream.mjpg).

        OPTIONS:
        """

    static let helpConclusion = """
        Runs until SIGINT or SIGTERM; SIGHUP reopens the camera's --log and the journal (with
        neither it is ignored). One line on stderr per refused request, at most ten of a kind in 10 s.

        EXIT CODES: 0 stopped by a signal, 1 the camera failed mid-run (as camera's 1), 2 usage, model,
        runtime, library, address or camera set-up error.
        """

    static func run(_ arguments: [String], bytes _: [[UInt8]]) -> Int32 {
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
        for notice in options.notices { Console.error("plantleaf serve: \(notice)") }
        // Blocked before any thread starts, so every thread inherits the mask and the signals
        // reach only the sigwait below. SIGUSR1 is the camera thread saying its run failed.
        // SIGHUP (logrotate's) is waited for here too: its default would end serve, and the
        // camera's log takes it over only once it is open.
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in [SIGINT, SIGTERM, SIGUSR1, SIGHUP] { sigaddset(&signals, number) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        // One journal for the camera's readings and the uploads' results.
        let journal = options.journal.recorder(command: "plantleaf serve")
        var monitor: CameraMonitor?
        var feed: LiveFeed?
        let server: HTTPServer, jobs: Int
        do {
            try HTTPServer.loadLibrary()
            let token = try options.tokenFile.map { path throws(ServeError) in try AccessToken(file: path) }
            let tls = try tlsFiles(options)
            jobs = options.jobs ?? BatchClassifier.defaultJobs(inputs: Int.max, threads: options.model.threads)
            var classifierOptions = try LessonsOptions.applying(options.model.lessonsPath,
                                                                to: options.model.classifierOptions(verdictPolicy: options.verdictPolicy), mayBeNew: true)
            // Corrections on the page teach while serve runs: every instance reads the features,
            // and the newest lessons before each photo.
            let liveLessons = LiveLessons(classifierOptions.lessons)
            classifierOptions.readsFeatures = true
            classifierOptions.liveLessons = liveLessons
            var classifiers: [Classifier] = []
            for _ in 0..<jobs { classifiers.append(try Classifier(options: classifierOptions)) }
            if let problem = classifiers.first?.secondOpinionProblem {
                Console.error("plantleaf serve: \(Remedy.skippedCheckLine(problem)) (uploads\(options.camera == nil ? "" : " and camera readings"))")
            }
            // The uploads and the camera share the --jobs instances and their queue: a machine runs
            // no more instances than it was told, and the camera's readings go ahead of uploads waiting.
            let workers = try InferenceWorkers(classifiers)
            if let failure = workers.threadStartFailure { throw failure }
            if let camera = options.camera {
                guard var made = CameraMonitor(camera, command: "plantleaf serve", shared: workers, linesInEnglish: true, openJournal: { _ in journal }) else {
                    return ExitCode.setupFailure
                }
                made.keepModelInput()
                monitor = made
                feed = LiveFeed()
            }
            let corrections = LessonsOptions.path(options.model.lessonsPath).map { path in
                Corrections(lessonsPath: path, live: liveLessons, sampleFolder: ProjectPaths.defaultSampleFolder(),
                            allowed: token != nil || options.listen.isLoopback, labels: classifiers.first?.labels.names ?? [])
            }
            var limits = HTTPServer.Limits()
            limits.bodyBytes = options.maxUploadBytes
            limits.bodyBytesInFlight = 4 * options.maxUploadBytes
            limits.requestSeconds = options.requestSeconds
            let service = WebService(workers: workers, token: token, bodyLimit: options.maxUploadBytes,
                                         feed: feed, journal: journal,
                                         keepsUploadPhotos: options.keepUploadPhotos, corrections: corrections,
                                     servedNames: ServedNames(extraNames: [options.listen.host] + options.hostNames), secureCookies: tls != nil,
                                     referencePictures: ReferencePictures(folder: ProjectPaths.defaultSampleFolder()), cameraName: monitor?.name,
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
        var camera: CameraThread?
        // Taken before the monitor goes to its thread: the one part of it this thread uses after.
        let cameraStop = monitor?.session.stopHandle
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
        while true {
            sigwait(&signals, &received)
            guard received == SIGHUP else { break }
            if let logPath = options.camera?.feed.logPath {
                Console.error(AppendLog.reopenOpenLog() ? "plantleaf serve: SIGHUP: \(logPath) is opened again before the next reading"
                    : "plantleaf serve: SIGHUP: \(logPath) is not open yet, nothing to reopen")
            }
            if let journal {
                HangUp.count()
                Console.error("plantleaf serve: SIGHUP: journal \(journal.settings.path) is opened again before the next write")
            } else if options.camera?.feed.logPath == nil {
                Console.error("plantleaf serve: SIGHUP ignored: there is no --log or journal to reopen")
            }
        }
        // The camera first (its reading in progress finishes), then the viewers waiting for its
        // next frame, then the server with its connections.
        cameraStop?.stop()
        let cameraStatus = camera?.join()
        feed?.close()
        server.stop()
        // The readings and uploads still queued for the journal are written before serve ends.
        journal?.close()
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
private final class CameraThread {
    private let thread: WorkerThread
    private let status: ExitStatus

    /// The run's exit status, set by the camera thread as it ends.
    private final class ExitStatus: Sendable {
        let value = Atomic<Int32>(ExitCode.success)
    }

    /// `monitor` goes to the camera thread: only that thread uses it from here on.
    init(monitor: sending CameraMonitor, feed: LiveFeed) throws(ThreadStartError) {
        let main = pthread_self()
        let status = ExitStatus()
        thread = try WorkerThread {
            let ended = monitor.run(output: .none) { record, frame in
                feed.publish(record, frameJPEG: frame)
            }
            feed.streamEnded()
            status.value.store(ended, ordering: .relaxed)
            if ended != ExitCode.success { pthread_kill(main, SIGUSR1) }
        }
        self.status = status
    }

    /// Waits for the run to end; its exit status.
    func join() -> Int32 {
        thread.join()
        // The join orders the thread's store before this load.
        return status.value.load(ordering: .relaxed)
    }
}
