import PlantLeafCommandLine
import PlantLeafCore
import PlantLeafTestSupport
import Testing

/// The option tables are both what the parsers accept and what the help texts list: each name
/// once, -h the same flag as --help, an option described in another's lines named there, and
/// every option's value read by its declaration into what the subcommand runs with.
@Suite struct OptionTableTests {
    static let tables: [(command: String, table: [OptionSpec])] = [
        ("classify", ClassifyOptions.optionTable),
        ("camera", CameraCommandOptions.optionTable),
        ("serve", ServeOptions.optionTable),
        ("bench", BenchOptions.optionTable),
        ("bench compare", BenchOptions.compareOptionTable),
        ("calibrate", CalibrateOptions.optionTable),
        ("teach", TeachOptions.optionTable),
    ]

    @Test func everyNameIsDeclaredOnce() {
        for (command, table) in Self.tables {
            let names: [String] = table.flatMap(\.names)
            #expect(Set(names).count == names.count, "\(command): \(names)")
        }
    }

    @Test func shortHelpIsTheHelpFlag() throws {
        for (command, table) in Self.tables {
            let long = try Arguments(["--help"], options: table), short = try Arguments(["-h"], options: table)
            #expect(short.positionals.isEmpty && long.positionals.isEmpty, "\(command)")
        }
        #expect(try ClassifyOptions.parse(["-h"]).help && CameraCommandOptions.parse(["-h"]).help && ServeOptions.parse(["-h"]).help
            && BenchOptions.parse(["-h"]).help && BenchOptions.parse(["compare", "-h"]).help && CalibrateOptions.parse(["-h"]).help)
    }

    /// An option without lines of its own would be missing from the help unless the option it
    /// qualifies names it.
    @Test func mentionedOptionsAreNamedInTheirHostsLines() {
        for (command, table) in Self.tables {
            for option in table {
                guard case .mentionedIn(let host) = option.help else { continue }
                // A host that shares its entry with the next option is described by that entry.
                var hostIndex: Int? = table.firstIndex { $0.name == host }
                while let index = hostIndex, case .sharesEntryWithNext = table[index].help { hostIndex = index + 1 }
                let hostHelp: OptionHelp? = hostIndex.map { table[$0].help }
                guard case .lines(let lines)? = hostHelp else {
                    Issue.record("\(command): \(option.name) is mentioned in \(host), which has no lines of its own")
                    continue
                }
                let text: String = lines.joined(separator: " ")
                let named = [" ", ",", ")"].contains { text.contains(option.name + $0) }
                #expect(named, "\(command): \(option.name) is not named in \(host)'s lines")
            }
        }
    }

    // MARK: Every option reaches the parsed result

    /// Two values each option takes, which the parsed options must tell apart.
    static func values(_ command: String, _ name: String, folder: String) -> (String, String)? {
        switch (command, name) {
        case ("bench", "--threads"): return ("1,2", "4")
        case ("camera", "--format"): return ("text", "json")
        case ("classify", "--format"): return ("json", "csv")
        case (_, "--json"), (_, "--csv"), (_, "--html"): return (folder + "/a", folder + "/b")
        default: break
        }
        let values: [String: (String, String)] = [
            "--model": ("a.tflite", "b.tflite"), "--labels": ("a.txt", "b.txt"), "--top-k": ("2", "5"), "--threads": ("2", "3"),
            "--jobs": ("1", "2"), "--crop": ("center", "none"), "--checks": ("none", "mirror"), "--min-score": ("0.5", "0.7"),
            "--mean": ("1", "2"), "--std": ("2", "3"), "--device": ("/dev/video8", "/dev/video9"), "--pixel-format": ("yuyv", "mjpeg"),
            "--size": ("320x240", "640x360"), "--fps": ("15", "30"), "--frames": ("5", "6"), "--duration": ("9", "10"),
            "--timeout": ("2", "3"), "--save-frames": ("a", "b"), "--input": ("a.mjpeg", "-"), "--every": ("5s", "1m"),
            "--log": ("a.jsonl", "b.jsonl"), "--name": ("Greenhouse 1", "Bench 2"), "--mqtt": ("mqtt://h/a", "mqtt://h/b"), "--mqtt-password-file": ("a", "b"),
            "--mqtt-ca": ("a", "b"), "--iterations": ("5", "6"), "--bench-frames": ("a.jpg", "b.jpg"), "--listen": ("127.0.0.1:1", "[::1]:2"),
            "--token-file": ("a", "b"), "--tls-cert": ("a", "b"), "--tls-key": ("a", "b"), "--max-upload": ("2", "3"),
            "--request-timeout": ("2", "3"), "--image": ("a.jpg", "b.jpg"), "--runs": ("2", "3"), "--warmup": ("2", "3"),
            "--cpus": ("0", "0-1"), "--min-seconds": ("1", "2"), "--format": ("yuyv", "mjpeg"),
            "--reference": ("a.txt", "b.txt"), "--output": ("a.txt", "b.txt"), "--host": ("a.example", "b.example"), "--lang": ("en", "ar"),
            "--journal": ("a.sqlite", "b.sqlite"), "--lessons": ("a.sqlite", "b.sqlite"), "--class": ("Bean — rust", "خيار"), "--shots": ("5", "10"), "--splits": ("3", "30"), "--event-readings": ("2", "5"), "--keep-days": ("7", "30"), "--max-journal-size": ("64", "128"),
        ]
        return values[name]
    }

    /// What an option needs beside it to be accepted at all.
    static func companions(_ command: String, _ name: String) -> [String] {
        var arguments: [String] = []
        if command == "classify" { arguments.append("leaf.jpg") }
        if command == "bench compare" { arguments += ["a.json", "b.json"] }
        if command == "calibrate" { arguments.append("leaves") }
        if command == "teach" { arguments.append("check") }
        // Serve's camera options (listed under --device) need a camera.
        if command == "serve", case .mentionedIn? = ServeOptions.optionTable.first(where: { $0.name == name })?.help {
            arguments += ["--device", "/dev/video7"]
        }
        if command == "serve", name == "--format" { arguments += ["--device", "/dev/video7"] }
        if ["--mqtt-password-file", "--mqtt-ca"].contains(name) { arguments += ["--mqtt", "mqtt://h/t"] }
        if name == "--tls-cert" { arguments += ["--tls-key", "k"] }
        if name == "--tls-key" { arguments += ["--tls-cert", "c"] }
        return arguments
    }

    /// The parsed options as text: every field, so two parses that read an option differently differ.
    static func parsed(_ command: String, _ arguments: [String]) throws -> String {
        switch command {
        case "classify": return String(describing: try ClassifyOptions.parse(arguments))
        case "camera": return String(describing: try CameraCommandOptions.parse(arguments))
        case "serve": return String(describing: try ServeOptions.parse(arguments))
        case "bench": return String(describing: try BenchOptions.parse(arguments))
        case "calibrate": return String(describing: try CalibrateOptions.parse(arguments))
        case "teach": return String(describing: try TeachOptions.parse(arguments))
        default: return String(describing: try BenchOptions.parse(["compare"] + arguments))
        }
    }

    /// Each option in each table is read by its declaration: two of its values give two different
    /// parsed results, a flag given and not given too. An option listed but never read would
    /// parse the same either way.
    @Test func everyOptionIsReadIntoTheParsedResult() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        for (command, table) in Self.tables {
            for option in table where option.name != "--help" {
                let base = Self.companions(command, option.name)
                let first: String, second: String
                if option.kind == .flag {
                    (first, second) = (try Self.parsed(command, base), try Self.parsed(command, base + [option.name]))
                } else {
                    guard let (a, b) = Self.values(command, option.name, folder: folder) else {
                        Issue.record("\(command) \(option.name): no sample values")
                        continue
                    }
                    (first, second) = (try Self.parsed(command, base + [option.name, a]), try Self.parsed(command, base + [option.name, b]))
                }
                #expect(first != second, "\(command) \(option.name) is not read into the parsed options")
            }
        }
    }

    /// Serve runs its camera with camera's own declarations: the same options give the same camera.
    @Test func serveReadsTheCameraOptionsAsCameraDoes() throws {
        let camera = ["--device", "/dev/video3", "--pixel-format", "mjpeg", "--size", "320x240", "--fps", "15", "--crop", "none",
                      "--timeout", "2", "--every", "5m", "--log", "a.jsonl", "--mqtt", "mqtt://h/t", "--mqtt-ca", "ca", "--save-frames", "d"]
        let shared = ["--top-k", "4", "--threads", "2", "--model", "m.tflite", "--labels", "l.txt", "--no-cache", "--min-score", "0.4"]
        let served = try #require(try ServeOptions.parse(camera + shared).camera)
        // Parsed outside #expect: Swift 6.0's #expect cannot take `try` inside an operand (a non-throwing autoclosure).
        let parsed = try CameraCommandOptions.parse(camera + shared)
        #expect(String(describing: served) == String(describing: parsed))
    }

    /// The old spellings parse as the new ones, plus one notice each.
    @Test func deprecatedSpellingsParseAsTheNewOnes() throws {
        var old = try CameraCommandOptions.parse(["--json", "--format", "nv12"])
        let current = try CameraCommandOptions.parse(["--format", "json", "--pixel-format", "nv12"])
        #expect(old.notices.count == 2 && current.notices.isEmpty)
        old.notices = []
        #expect(String(describing: old) == String(describing: current))
        var serve = try ServeOptions.parse(["--device", "/dev/video3", "--format", "rgb24"])
        #expect(serve.notices == ["warning: --format rgb24 is deprecated and stops working in plantleaf 0.2.0: use --pixel-format rgb24"])
        serve.notices = []
        let renamed = try ServeOptions.parse(["--device", "/dev/video3", "--pixel-format", "rgb24"])
        #expect(String(describing: serve) == String(describing: renamed))
    }

    /// Serve refuses each camera monitor option without a camera, naming it: the options it
    /// checks are the monitor group's own entries.
    @Test func serveRefusesEachMonitorOptionWithoutACamera() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let options = CameraMonitorOptions.options.filter { !["--device", "--input"].contains($0.name) }
        #expect(options.count == 12)
        for option in options {
            let value = try #require(Self.values("camera", option.name, folder: folder), "\(option.name): no sample value").0
            #expect(throws: UsageError("\(option.name) is a camera option: give --device PATH or --input FILE|- too")) {
                try ServeOptions.parse([option.name, value])
            }
        }
    }

    /// --input refuses the options that set up a device even at their default values, and the
    /// pixel format in --format's old spelling as --pixel-format, in camera and serve alike.
    @Test func inputRefusesDeviceOptionsEvenAtTheirDefaults() {
        let refusals: [(arguments: [String], option: String)] = [
            (["--size", "640x480"], "--size"), (["--pixel-format", "auto"], "--pixel-format"), (["--fps", "30"], "--fps"),
            (["--device", "/dev/video0"], "--device"), (["--format", "yuyv"], "--pixel-format"),
        ]
        for (arguments, option) in refusals {
            let error = UsageError("\(option) is for V4L2 devices and cannot be used with --input")
            #expect(throws: error) { try CameraCommandOptions.parse(["--input", "-"] + arguments) }
            #expect(throws: error) { try ServeOptions.parse(["--input", "-"] + arguments) }
        }
        #expect(throws: Never.self) { try CameraCommandOptions.parse(["--input", "-", "--format", "auto", "--crop", "none"]) }
    }
}
