import PlantLeafServe

extension ServeOptions {
    /// --max-upload's range, in MiB.
    public static let uploadMebibytes = 1...1024
    /// --request-timeout's range, in seconds.
    public static let requestSeconds = 1.0...3600.0

    /// Where the help's defaults come from: what parse leaves when an option is not given.
    private static let defaults = ServeOptions()

    /// The camera options serve runs its monitor with, as camera's help describes them.
    static let cameraOptionNames: Set<String> = ["--device", "--input", "--format", "--size", "--fps", "--crop", "--timeout", "--every",
                                                 "--log", "--mqtt", "--mqtt-password-file", "--mqtt-ca", "--save-frames"]
    /// Options both commands take: given to serve, they hold for uploads and the camera alike.
    static let sharedOptionNames: Set<String> = ["--top-k", "--threads", "--model", "--labels", "--no-cache", "--checks", "--min-score"]

    /// Every option serve takes, in the order its help lists them: its own, then the camera's,
    /// which one entry names and camera's help describes.
    public static let optionTable: [OptionSpec] = serveOptions + [
        OptionSpec("--device", .valued(placeholder: "PATH"), .sharesEntryWithNext(separator: " | ")),
        OptionSpec("--input", .valued(placeholder: "FILE|-"),
                   .lines(["run the camera monitor on this V4L2 device or motion-JPEG stream, shown live at",
                           "/live; with it camera's --format, --size, --fps, --crop, --timeout, --every, --log,",
                           "--mqtt (--mqtt-password-file, --mqtt-ca) and --save-frames, as plantleaf camera --help",
                           "describes them"])),
    ] + CameraCommandOptions.optionTable.filter { cameraOptionNames.contains($0.name) && $0.name != "--device" && $0.name != "--input" }
        .map { OptionSpec(names: $0.names, kind: $0.kind, help: .mentionedIn("--device")) } + [OptionSpec.helpFlag]

    private static let serveOptions: [OptionSpec] = [
        OptionSpec("--listen", .valued(placeholder: "HOST:PORT"),
                   .lines(["address and port to serve on, IPv6 in brackets (default: \(defaults.listen));",
                           "any other than loopback lets other machines in: use --token-file then"])),
        OptionSpec("--token-file", .valued(placeholder: "FILE"),
                   .lines(["require the token in FILE's first line on every route but /api/health"])),
        OptionSpec("--tls-cert", .valued(placeholder: "FILE"), .sharesEntryWithNext(separator: " ")),
        OptionSpec("--tls-key", .valued(placeholder: "FILE"),
                   .lines(["serve HTTPS with this PEM certificate and key"])),
        OptionSpec("--max-upload", .valued(placeholder: "MIB"),
                   .lines(["largest upload in MiB, \(OptionRange.phrase(uploadMebibytes)) (default: \(defaults.maxUploadBytes >> 20)); larger is refused with 413"])),
        OptionSpec("--request-timeout", .valued(placeholder: "S"),
                   .lines(["seconds a client has to send a whole request, \(OptionRange.phrase(requestSeconds))",
                           "(default: \(OptionRange.number(defaults.requestSeconds))); a client trickling it in is dropped"])),
        OptionSpec.model,
        OptionSpec("--labels", .valued(placeholder: "FILE"), .lines(["class names for the model (default: the default model's own)"])),
        OptionSpec("--top-k", .valued(placeholder: "N"),
                   .lines(["classes per result, \(OptionRange.phrase(OptionRange.topK)) (default: \(defaults.topK))"])),
        OptionSpec("--checks", .valued(placeholder: "LIST"),
                   .lines(["verdict checks for uploads, as for classify (default: picture,vegetation,score);",
                           "the camera's default is all, as for camera"])),
        OptionSpec.minimumScore,
        OptionSpec("--threads", .valued(placeholder: "N"),
                   .lines(["CPU threads per inference, \(OptionRange.phrase(OptionRange.threads)) (default: \(defaults.threads))"])),
        OptionSpec("--jobs", .valued(placeholder: "N"),
                   .lines(["uploads classified at once, each on its own model instance, \(OptionRange.phrase(OptionRange.jobs))",
                           "(default: one per core, divided by --threads)"])),
        OptionSpec("--no-cache", .flag,
                   .lines(["compile the model without XNNPACK's weight cache"])),
    ]
}
