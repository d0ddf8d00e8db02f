import PlantLeafCamera
import PlantLeafCore
import PlantLeafServe

/// `plantleaf serve`'s arguments, parsed and range-checked without doing anything.
public struct ServeOptions: OptionGroup {
    public var help = false
    @Bound(Declared.listen) public var listen: ListenAddress
    /// --host NAME, each time given: names the Host header may carry besides the built-in ones.
    @Bound(repeating: Declared.host) public var hostNames: [String]
    @Bound(Declare.text("--token-file", placeholder: "FILE",
                        help: .lines(["require the token in FILE's first line on every route but /api/health"])))
    public var tokenFile: String?
    @Bound(Declare.text("--tls-cert", placeholder: "FILE", help: .sharesEntryWithNext(separator: " "))) public var tlsCertificateFile: String?
    @Bound(Declare.text("--tls-key", placeholder: "FILE", help: .lines(["serve HTTPS with this PEM certificate and key"])))
    public var tlsKeyFile: String?
    @Bound(Declare.integer("--max-upload", placeholder: "MIB", range: uploadMebibytes, default: 25) { range, fallback in
        .lines(["largest upload in MiB, \(range) (default: \(fallback)); larger is refused with 413"])
    }) var maxUploadMebibytes: Int
    @Bound(Declare.number("--request-timeout", placeholder: "S", range: ServeOptions.requestSeconds, default: HTTPServer.Limits().requestSeconds) { range, fallback in
        .lines(["seconds a client has to send a whole request, \(range)",
                "(default: \(fallback)); a client trickling it in is dropped"])
    }) public var requestSeconds: Double
    /// The model options classify and camera share: for uploads and the camera alike.
    public var model = ModelOptions()
    /// --checks and --min-score, for uploads (the camera reads them with its own default checks).
    @Bound(SharedOptions.checks.described(.lines(["verdict checks for uploads, as for classify (default: \(VerdictChecks.classifyDefault));",
                                                  "the camera's default is all, as for camera"])))
    var checks: VerdictChecks
    @Bound(SharedOptions.minimumScore) var minimumScore: Double?
    /// nil: one per core, divided by --threads.
    @Bound(SharedOptions.jobs.described(.lines(["model instances: uploads and camera readings classified at once, \(OptionRange.phrase(OptionRange.jobs))",
                                                "(default: one per core, divided by --threads)"])))
    public var jobs: Int?
    /// --journal FILE or --no-journal, events and retention: for uploads and the camera alike.
    public var journal = JournalOptions()
    /// --keep-upload-photos: each upload's journal row gets a small copy of its picture.
    @Bound(Flag("--keep-upload-photos", help: .lines([
        "keep each upload's picture as the model read it (a JPEG of at most 30 KB, never the",
        "file or its name) with its result in the journal, shown at /history; off: the result only"])))
    public var keepUploadPhotos: Bool
    /// The camera monitor's options, when --device or --input names a camera.
    public var camera: CameraCommandOptions?
    /// One line each for old spellings used (`DeprecatedSpelling`), for the command to print.
    public var notices: [String] = []

    /// No options: loopback, no camera.
    public init() {}

    /// Largest upload.
    public var maxUploadBytes: Int { maxUploadMebibytes << 20 }

    /// The uploads' verdict policy: --checks and --min-score.
    public var verdictPolicy: VerdictPolicy { SharedOptions.verdictPolicy(checks: checks, minimumScore: minimumScore) }

    /// - Throws: `UsageError` for half of TLS, or photos kept without a journal.
    public func validate() throws(UsageError) {
        if (tlsCertificateFile == nil) != (tlsKeyFile == nil) { throw UsageError("--tls-cert and --tls-key go together") }
        if keepUploadPhotos, journal.disabled {
            throw UsageError("--keep-upload-photos keeps the photos in the journal: leave out --no-journal")
        }
    }

    /// --max-upload's range, in MiB.
    public static let uploadMebibytes = 1...1024
    /// --request-timeout's range, in seconds.
    public static let requestSeconds = 1.0...3600.0

    /// The options only this subcommand takes, each declared once.
    enum Declared {

        /// Loopback: only this machine, until a token is set up.
        private static let defaultListen = "127.0.0.1:8080"
        static let listen = Option<ListenAddress>(
            "--listen", placeholder: "HOST:PORT", default: ListenAddress(parsing: defaultListen)!,
            help: .lines(["address and port to serve on, IPv6 in brackets (default: \(defaultListen));",
                          "any other than loopback lets other machines in: use --token-file then"])
        ) { text throws(UsageError) in
            guard let address = ListenAddress(parsing: text) else {
                throw UsageError("--listen must be an IP address and a port, as 127.0.0.1:8080, 0.0.0.0:8080 or [::]:8080, got '\(text)'")
            }
            return address
        }
        static let host = Option<String>(
            "--host", placeholder: "NAME", default: "",
            help: .lines(["a name this server is reached by (repeatable), as plantleaf.example.org;",
                          "a Host that is no address, localhost, this machine or such a name gets 421"])
        ) { text throws(UsageError) in
            let allowed = text.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            }
            guard allowed, !text.isEmpty, text.utf8.count <= 253 else {
                throw UsageError("--host must be a DNS name (letters, digits, '-' and '.'), got '\(text)'")
            }
            return text
        }
        /// --format, before 0.1.0 the camera's pixel format: --pixel-format.
        static let oldPixelFormat = Option<String>("--format", placeholder: "FORMAT", default: "auto",
                                                   help: .deprecated(replacement: "--pixel-format")) { text throws(UsageError) in
            _ = try CameraMonitorOptions.pixelFormat(named: text, option: "--format")
            return text
        }
    }

    /// Every option serve takes, in the order its help lists them: its own, then the camera's,
    /// which one entry names and camera's help describes.
    public static let optionTable: [OptionSpec] = ServeOptions.options + [
        OptionSpec(names: CameraMonitorOptions.device.spec.names, kind: CameraMonitorOptions.device.spec.kind, help: .sharesEntryWithNext(separator: " | ")),
        OptionSpec(names: CameraMonitorOptions.input.spec.names, kind: CameraMonitorOptions.input.spec.kind, help: .lines([
            "run the camera monitor on this V4L2 device or motion-JPEG stream, shown live at",
            "/live; with it camera's --name, --pixel-format, --size, --fps, --crop, --timeout, --every, --log,",
            "--mqtt (--mqtt-password-file, --mqtt-ca) and --save-frames, as plantleaf camera --help",
            "describes them",
        ])),
    ] + CameraMonitorOptions.options.filter { ![CameraMonitorOptions.device.name, CameraMonitorOptions.input.name].contains($0.name) }
        .map { OptionSpec(names: $0.names, kind: $0.kind, help: .mentionedIn("--device")) } + [Declared.oldPixelFormat.spec, SharedOptions.help.spec]

    /// serve's arguments, range-checked.
    /// - Throws: `UsageError` for an unknown option, a value out of range, or options that do not go together.
    public static func parse(_ arguments: [String]) throws(UsageError) -> ServeOptions {
        let parsed = try Arguments(arguments, options: optionTable)
        guard !parsed.has(SharedOptions.help) else {
            var options = ServeOptions()
            options.help = true
            return options
        }
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
        var options = try read(parsed)
        options.camera = try cameraOptions(parsed, serve: options)
        // The history was once read from the camera's --log when serve kept no journal.
        if options.camera?.feed.logPath != nil, options.journal.disabled { options.notices.append(WebService.historyWithoutJournal) }
        if parsed.gave(Declared.oldPixelFormat) {
            let text = try parsed.value(Declared.oldPixelFormat)
            options.notices.append(DeprecatedSpelling.notice("--format \(text)", replacement: "--pixel-format \(text)"))
        }
        return options
    }

    /// The camera monitor's options from the same declarations camera parses them with, and the
    /// options serve shares with it (the model, threads, top classes and threshold); the checks
    /// are camera's default unless --checks is given.
    private static func cameraOptions(_ parsed: Arguments, serve: ServeOptions) throws(UsageError) -> CameraCommandOptions? {
        guard CameraMonitorOptions.namesCamera(parsed) else {
            if let option = CameraMonitorOptions.firstGiven(parsed) ?? (parsed.gave(Declared.oldPixelFormat) ? Declared.oldPixelFormat.name : nil) {
                throw UsageError("\(option) is a camera option: give --device PATH or --input FILE|- too")
            }
            return nil
        }
        var camera = CameraCommandOptions()
        camera.monitor = try CameraMonitorOptions.read(parsed)
        // --format, the old spelling of --pixel-format, read as that.
        let oldPixelFormat = try CameraMonitorOptions.pixelFormat(named: try parsed.value(Declared.oldPixelFormat), option: "--format")
        camera.capture.pixelFormat = camera.capture.pixelFormat ?? oldPixelFormat
        try camera.validate()
        camera.model = serve.model
        camera.journal = serve.journal
        camera.checks = try parsed.value(CameraCommandOptions.Declared.checks)
        camera.minimumScore = serve.minimumScore
        return camera
    }
}
