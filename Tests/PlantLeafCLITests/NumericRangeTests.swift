import Foundation
import Glibc
import PlantLeafKit
import PlantLeafTestSupport
import Testing

/// Issue 10: odd and hostile use of the command line ends in a usage error or a reported
/// failure, never a crash, a hang, or results lost or put under the wrong name.
@Suite struct NumericRangeTests {
    static let leaf = ClassifyBadInputTests.goodSample
    var leaf: String { Self.leaf }

    /// Every numeric option, just outside its range (and far outside, past Int), is one usage
    /// line and exit 2 before anything runs.
    @Test func numbersOutsideTheirRangesAreUsageErrors() throws {
        let cases: [(arguments: [String], line: String)] = [
            (["classify", "--top-k", "9223372036854775806", leaf], "plantleaf classify: --top-k must be from 1 to 1000, got 9223372036854775806"),
            (["classify", "--top-k", "100000000000000000000", leaf], "plantleaf classify: --top-k must be from 1 to 1000, got 100000000000000000000"),
            (["classify", "--top-k", "0", leaf], "plantleaf classify: --top-k must be from 1 to 1000, got 0"),
            (["classify", "--threads", "2147483648", leaf], "plantleaf classify: --threads must be from 1 to 64, got 2147483648"),
            (["classify", "--threads", "65", leaf], "plantleaf classify: --threads must be from 1 to 64, got 65"),
            (["classify", "--jobs", "-1", leaf], "plantleaf classify: --jobs must be from 1 to 64, got -1"),
            (["classify", "--jobs", "1.5", leaf], "plantleaf classify: --jobs must be a whole number, got '1.5'"),
            (["classify", "--mean", "1e308", leaf], "plantleaf classify: --mean must be from -1000 to 1000, got 1e308"),
            (["classify", "--mean", "nan", leaf], "plantleaf classify: --mean must be a number, got 'nan'"),
            (["classify", "--std", "0", leaf], "plantleaf classify: --std must be above 0 and at most 1000, got 0"),
            (["classify", "--std", "-inf", leaf], "plantleaf classify: --std must be above 0 and at most 1000, got -inf"),
            (["camera", "--top-k", "1001"], "plantleaf camera: --top-k must be from 1 to 1000, got 1001"),
            (["camera", "--threads", "33000"], "plantleaf camera: --threads must be from 1 to 64, got 33000"),
            (["camera", "--frames", "0"], "plantleaf camera: --frames must be from 1 to 1000000000, got 0"),
            (["camera", "--iterations", "1000001"], "plantleaf camera: --iterations must be from 1 to 1000000, got 1000001"),
            (["camera", "--fps", "0"], "plantleaf camera: --fps must be above 0 and at most 1000, got 0"),
            (["camera", "--duration", "1e10"], "plantleaf camera: --duration must be above 0 and at most 31536000, got 1e10"),
            (["camera", "--timeout", "3601"], "plantleaf camera: --timeout must be above 0 and at most 3600, got 3601"),
            (["camera", "--bench-frames", leaf, "--size", "1x1"],
             "plantleaf camera: --size must be an even width from 16 to 7680 and a height from 16 to 4320, got '1x1'"),
            (["camera", "--size", "641x480"],
             "plantleaf camera: --size must be an even width from 16 to 7680 and a height from 16 to 4320, got '641x480'"),
            (["bench", "--runs", "0"], "plantleaf bench: --runs must be from 1 to 1000000, got 0"),
            (["bench", "--warmup", "-1"], "plantleaf bench: --warmup must be from 0 to 1000000, got -1"),
            (["bench", "--threads", "1,65"], "plantleaf bench: --threads values must be from 1 to 64, got 65"),
            (["bench", "--min-seconds", "86401"], "plantleaf bench: --min-seconds must be from 0 to 86400, got 86401"),
        ]
        for (arguments, line) in cases {
            let command = arguments[0]
            let result = try runWithin(seconds: 30, TestPaths.binary, arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments)")
            #expect(result.stderrLines == [line + " (see plantleaf \(command) --help)"], "\(arguments)")
        }
    }

    /// A thread limit that leaves too few threads for --threads is a clear set-up error, where
    /// the thread pool used to come up short, score garbage and crash at exit.
    @Test func threadLimitBelowTheThreadsAskedForIsASetupError() throws {
        // RLIMIT_NPROC binds only an unprivileged user: becoming one (setpriv) needs root, and
        // the checkout must be readable by that user.
        let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups"]
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
              try runCommand("/usr/bin/setpriv", asNobody + ["/usr/bin/test", "-x", TestPaths.binary, "-a", "-r", TestPaths.defaultModel]).status == 0
        else { return }
        let result = try runWithin(seconds: 60, "/usr/bin/setpriv",
                                   asNobody + ["/bin/bash", "-c",
                                    "ulimit -u 40 && exec \"$0\" \"$@\"", TestPaths.binary, "classify", "--threads", "64", Self.leaf])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines == ["plantleaf classify: cannot start the 63 helper threads of a 64-thread interpreter: "
            + "resource temporarily unavailable (the process or user thread limit, ulimit -u, is reached)"])
    }
}

/// Results that cannot be written are an error; a reader that stops reading ends the run quietly.
@Suite struct UnwritableOutputTests {
    static let leaf = ClassifyBadInputTests.goodSample
    var leaf: String { Self.leaf }

    @Test func fullDiskIsAnErrorNotASilentSuccess() throws {
        for format in ["text", "json", "csv"] {
            let result = try runPlantLeafInShell("exec \"$0\" \"$@\" >/dev/full", ["classify", "--format", format, Self.leaf, Self.leaf])
            #expect(result.status == 2, "\(format)")
            #expect(result.stderrLines == ["plantleaf classify: cannot write the results to standard output: no space left on device"])
        }
        let bench = try runPlantLeafInShell("exec \"$0\" \"$@\" >/dev/full", ["bench", "--synthetic", "--runs", "1", "--warmup", "0"])
        #expect(bench.status == 2)
        #expect(bench.stderrLines.last == "plantleaf bench: cannot write the results to standard output: no space left on device")
    }

    @Test func closedStdoutIsRefusedBeforeAnyWork() throws {
        for arguments in [["classify", Self.leaf], ["--version"], ["bench", "compare", "a.json", "b.json"]] {
            let result = try runPlantLeafInShell("exec \"$0\" \"$@\" >&-", arguments)
            #expect(result.status == 2, "\(arguments)")
            let command = arguments[0] == "--version" ? "" : " " + arguments[0]
            #expect(result.stderrLines == ["plantleaf\(command): cannot write the results to standard output: standard output is closed"])
        }
    }

    /// `| head -1`: no SIGPIPE death (141), no error line; the status is what the inputs handled
    /// before the reader left earned.
    @Test func readerClosingThePipeEndsTheRunQuietly() throws {
        let folder = TestPaths.temporaryDirectory()
        TestImages.write(Array("not a photo".utf8), to: folder + "/bad.jpg")
        let inputs = Array(repeating: Self.leaf, count: 30)
        let script = "\"$0\" \"$@\" | head -1; echo \"status ${PIPESTATUS[0]}\" >&2"
        let quiet = try runPlantLeafInShell(script, ["classify", "--jobs", "2"] + inputs)
        #expect(quiet.stdoutLines == [leaf])
        #expect(quiet.stderrLines == ["status 0"])
        let afterFailure = try runPlantLeafInShell(script, ["classify", "--format", "json", folder + "/bad.jpg"] + inputs)
        #expect(afterFailure.stdoutLines == ["{\"path\": \"\(folder)/bad.jpg\", \"error\": \"not a PNG or JPEG image (starts with 6e 6f 74 20 61 20 70 68)\"}"])
        #expect(afterFailure.stderrLines == ["plantleaf classify: \(folder)/bad.jpg: not a PNG or JPEG image (starts with 6e 6f 74 20 61 20 70 68)", "status 1"])
    }
}

/// Workers set up one after another before any runs: with many jobs and bad files in the batch,
/// every error line and the summary are there every time.
@Suite struct ConcurrentSetUpTests {
    @Test func manyJobsLoseNoLineInFiftyRuns() throws {
        let folder = TestPaths.temporaryDirectory()
        TestImages.write(Array("not a photo".utf8), to: folder + "/text.jpg")
        TestImages.write([], to: folder + "/empty.png")
        let good = Array(TestPaths.plantVillageImages().prefix(3))
        var inputs: [String] = []
        for image in good { inputs += [folder + "/text.jpg", image, folder + "/empty.png", folder + "/missing.jpg"] }
        let expectedErrors = good.flatMap { _ in
            ["plantleaf classify: \(folder)/text.jpg: not a PNG or JPEG image (starts with 6e 6f 74 20 61 20 70 68)",
             "plantleaf classify: \(folder)/empty.png: empty file (0 bytes)",
             "plantleaf classify: \(folder)/missing.jpg: no such file or directory"]
        } + ["plantleaf classify: 9 of 12 inputs failed"]
        for run in 1...50 {
            let result = try runWithin(seconds: 60, TestPaths.binary, ["classify", "--jobs", "8", "--format", "json"] + inputs)
            #expect(result.status == 1, "run \(run): \(result.stderr)")
            #expect(result.stderrLines == expectedErrors, "run \(run)")
            let paths = result.stdoutLines.compactMap { jsonObject($0)?["path"] as? String }
            #expect(paths == inputs, "run \(run)")
            if result.stderrLines != expectedErrors || paths != inputs { break }
        }
    }
}

/// What is not a regular file is refused by its type, at once, wherever a file is read; `-` is
/// standard input.
@Suite struct SpecialFileTests {
    static let leaf = ClassifyBadInputTests.goodSample

    static func fifo(in folder: String, named name: String) throws -> String {
        let path = folder + "/" + name
        try #require(mkfifo(path, 0o644) == 0)
        return path
    }

    @Test func fifosDevicesAndProcFilesAreRefusedWithoutHanging() throws {
        let folder = TestPaths.temporaryDirectory()
        let fifo = try Self.fifo(in: folder, named: "waiting.jpg")
        TestImages.write(try FileReader.readAll(path: Self.leaf), to: folder + "/leaf.jpg")
        let result = try runWithin(seconds: 60, TestPaths.binary,
                                   ["classify", "--top-k", "1", folder, fifo, "/dev/zero", "/dev/null", "/proc/self/status", Self.leaf])
        #expect(result.status == 1)
        #expect(result.stdoutLines == [folder + "/leaf.jpg", "   99.6%  Apple — Apple scab", Self.leaf, "   99.6%  Apple — Apple scab"])
        #expect(result.stderrLines == [
            "plantleaf classify: \(fifo): is a FIFO (named pipe), not a regular file",
            "plantleaf classify: \(fifo): is a FIFO (named pipe), not a regular file",
            "plantleaf classify: /dev/zero: is a character device, not a regular file",
            "plantleaf classify: /dev/null: is a character device, not a regular file",
            // Read to its end although stat says 0 bytes: its text is no image.
            "plantleaf classify: /proc/self/status: not a PNG or JPEG image (starts with 4e 61 6d 65 3a 09 70 6c)",
            "plantleaf classify: 5 of 7 inputs failed",
        ])
    }

    @Test func fifoAsLabelsBenchImageOrReportIsRefused() throws {
        let fifo = try Self.fifo(in: TestPaths.temporaryDirectory(), named: "pipe")
        let cases: [(arguments: [String], line: String)] = [
            (["classify", "--labels", fifo, Self.leaf],
             "plantleaf classify: cannot read labels \(fifo): is a FIFO (named pipe), not a regular file (run `make setup`, or pass --labels)"),
            (["bench", "--image", fifo, "--runs", "1"],
             "plantleaf bench: cannot read benchmark image \(fifo): is a FIFO (named pipe), not a regular file (pass --image FILE, or --synthetic to need no file)"),
            (["bench", "compare", fifo, "/dev/zero"], "plantleaf bench compare: cannot read benchmark report \(fifo): is a FIFO (named pipe), not a regular file"),
            (["classify", "--model", fifo, Self.leaf], "plantleaf classify: cannot read model \(fifo): is a FIFO (named pipe), not a regular file"),
        ]
        for (arguments, line) in cases {
            let result = try runWithin(seconds: 60, TestPaths.binary, arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderrLines.filter { !$0.contains("warning:") } == [line], "\(arguments)")
        }
    }

    @Test func dashIsStandardInput() throws {
        let piped = try runPlantLeafInShell("cat \"$1\" | \"$0\" classify --top-k 1 -", [Self.leaf])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdoutLines == ["-", "   99.6%  Apple — Apple scab"])
        let empty = try runPlantLeafInShell("exec \"$0\" classify - </dev/null", [])
        #expect(empty.status == 1)
        #expect(empty.stderrLines == ["plantleaf classify: -: empty file (0 bytes)", "plantleaf classify: 1 of 1 inputs failed"])
        let twice = try runPlantLeaf(["classify", "-", "-"])
        #expect(twice.status == 2)
        #expect(twice.stderrLines == ["plantleaf classify: - (standard input) can be given once (see plantleaf classify --help)"])
    }
}

/// Whatever in a folder could hold images but cannot be searched or read is one error line and
/// a failed input; the rest is classified.
@Suite struct NothingSkippedTests {
    static let leaf = ClassifyBadInputTests.goodSample

    @Test func unreadableFoldersAndBrokenLinksAreEachOneFailure() throws {
        let folder = TestPaths.temporaryDirectory()
        TestImages.write(try FileReader.readAll(path: Self.leaf), to: folder + "/leaf.jpg")
        try FileManager.default.createDirectory(atPath: folder + "/locked", withIntermediateDirectories: false)
        TestImages.write(try FileReader.readAll(path: Self.leaf), to: folder + "/locked/hidden.jpg")
        chmod(folder + "/locked", 0)
        try FileManager.default.createSymbolicLink(atPath: folder + "/dangling.jpg", withDestinationPath: "gone.jpg")
        try FileManager.default.createSymbolicLink(atPath: folder + "/loop", withDestinationPath: "loop")
        try FileManager.default.createSymbolicLink(atPath: folder + "/parent", withDestinationPath: ".")
        let result = try ClassifyBadInputTests.runUnprivileged(["classify", "--top-k", "1", folder, folder + "/locked"])
        #expect(result.status == 1)
        #expect(result.stdoutLines == [folder + "/leaf.jpg", "   99.6%  Apple — Apple scab"])
        #expect(result.stderrLines == [
            "plantleaf classify: \(folder)/dangling.jpg: symbolic link to a file that does not exist",
            "plantleaf classify: \(folder)/locked: cannot search folder: permission denied",
            "plantleaf classify: \(folder)/loop: symbolic link loop",
            "plantleaf classify: \(folder)/parent: folder already searched (a symbolic link leads back to it)",
            "plantleaf classify: \(folder)/locked: cannot search folder: permission denied",
            "plantleaf classify: 5 of 6 inputs failed",
        ])
    }

    @Test func pathLongerThanPathMaxIsOneFailure() throws {
        let folder = TestPaths.temporaryDirectory()
        let component = String(repeating: "d", count: 200)
        // Made one level at a time from inside, the only way past PATH_MAX.
        let made = try runCommand("/bin/bash", ["-c", "cd \"$0\" && for level in $(seq 25); do mkdir \"$1\" && cd \"$1\" || exit 1; done; cp \"$2\" leaf.jpg",
                                                folder, component, Self.leaf])
        try #require(made.status == 0, "\(made.stderr)")
        TestImages.write(try FileReader.readAll(path: Self.leaf), to: folder + "/leaf.jpg")
        var tooLong = folder
        while tooLong.utf8.count < Int(PATH_MAX) { tooLong += "/" + component }
        let result = try runWithin(seconds: 60, TestPaths.binary, ["classify", "--top-k", "1", folder])
        #expect(result.status == 1)
        #expect(result.stdoutLines == [folder + "/leaf.jpg", "   99.6%  Apple — Apple scab"])
        #expect(result.stderrLines == ["plantleaf classify: \(tooLong): path longer than the system allows (PATH_MAX 4096 bytes)",
                                       "plantleaf classify: 1 of 2 inputs failed"])
    }
}

/// Messages say what happened, in the user's terms, at the right time.
@Suite struct MessageTests {
    static let leaf = ClassifyBadInputTests.goodSample

    static func report(threads: String = "1", median: String = "2.5") -> String {
        FuzzTargets.benchReportSeed(threads: threads, median: median)
    }

    @Test func compareNamesFieldsAsTheFileSpellsThemAndRefusesImpossibleTimes() throws {
        let folder = TestPaths.temporaryDirectory()
        let files: [(name: String, text: String, reason: String)] = [
            ("fraction.json", Self.report(threads: "1.5"),
             "valid JSON, but a number does not fit its field (a fraction or too large where a whole number belongs)"),
            ("huge.json", Self.report(median: "1e308"),
             "field results[0].stages.invoke.median_ms is 1e+308, not a time above 0 and at most a day (86400000 ms)"),
            ("zero.json", Self.report(median: "0"),
             "field results[0].stages.invoke.median_ms is 0.0, not a time above 0 and at most a day (86400000 ms)"),
            ("negative.json", Self.report(median: "-4"),
             "field results[0].stages.invoke.median_ms is -4.0, not a time above 0 and at most a day (86400000 ms)"),
            ("version-only.json", #"{"schema_version": 1}"#, "missing field plantleaf_version"),
            ("cut.json", #"{"schema_version": 1, "plantleaf"#, "not valid JSON"),
        ]
        let good = folder + "/good.json"
        TestImages.write(Array(Self.report().utf8), to: good)
        for file in files {
            let path = folder + "/" + file.name
            TestImages.write(Array(file.text.utf8), to: path)
            let result = try runPlantLeaf(["bench", "compare", good, path])
            #expect(result.status == 2, "\(file.name)")
            #expect(result.stderrLines == ["plantleaf bench compare: \(path) is not a plantleaf bench JSON report: \(file.reason) "
                + "(write one with plantleaf bench --json FILE)"], "\(file.name)")
        }
    }

    @Test func benchOutputPathsAreCheckedBeforeMeasuring() throws {
        let folder = TestPaths.temporaryDirectory()
        // A million runs would take minutes: the error must come first.
        let same = try runWithin(seconds: 30, TestPaths.binary, ["bench", "--synthetic", "--runs", "1000000", "--json", folder + "/r", "--csv", folder + "/r"])
        #expect(same.status == 2)
        #expect(same.stderrLines == ["plantleaf bench: --json and --csv name the same file, \(folder)/r: give each its own (see plantleaf bench --help)"])
        let directory = try runWithin(seconds: 30, TestPaths.binary, ["bench", "--synthetic", "--runs", "1000000", "--json", folder])
        #expect(directory.status == 2)
        #expect(directory.stderrLines == ["plantleaf bench: cannot write --json file \(folder): is a directory (see plantleaf bench --help)"])
    }

    @Test func bareLibraryNameIsRefusedInPlantLeafsWords() throws {
        let result = try runPlantLeaf(["classify", Self.leaf], environment: ["PLANTLEAF_LITERT_LIB": "libLiteRt.so"])
        #expect(result.status == 2)
        #expect(result.stderrLines == ["plantleaf classify: PLANTLEAF_LITERT_LIB must be a path to libLiteRt.so (with a /, e.g. ./libLiteRt.so), got 'libLiteRt.so'"])
    }

    @Test func cameraListWithoutCamerasIsExitTwo() throws {
        guard (try? FileManager.default.contentsOfDirectory(atPath: "/dev"))?.contains(where: { $0.hasPrefix("video") }) == false else { return }
        let result = try runPlantLeaf(["camera", "--list"])
        #expect(result.status == 2)
        #expect(result.stderrLines == ["plantleaf camera: no /dev/video* devices: plug a camera in (dmesg shows whether the kernel saw it)"])
    }

    @Test func csvHeaderOnlyAfterSetUp() throws {
        let result = try runPlantLeaf(["classify", "--format", "csv", "--model", "/nonexistent/model.tflite", Self.leaf])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
    }

    /// The progress line is drawn on a terminal that can redraw (a pseudo-terminal from
    /// script(1)), never with TERM=dumb.
    @Test func noProgressLineOnADumbTerminal() throws {
        let leaves = Array(repeating: "'\(Self.leaf)'", count: 20).joined(separator: " ")
        func stderrOnTerminal(_ term: String) throws -> String {
            let command = "TERM=\(term) '\(TestPaths.binary)' classify --jobs 1 \(leaves) >/dev/null"
            return try runWithin(seconds: 120, "/usr/bin/script", ["-qec", command, "/dev/null"]).stdout
        }
        #expect(try stderrOnTerminal("xterm").contains("\u{1B}[K[1/20] "))
        #expect(try !stderrOnTerminal("dumb").contains("\u{1B}["))
    }
}

/// File names are bytes: each file is opened by the name its folder listing or the command line
/// gave, and shown so that no two names look alike and none can forge a line or reach the
/// terminal as a command.
@Suite struct FileNameBytesTests {
    static let leaf = ClassifyBadInputTests.goodSample

    static func write(_ bytes: [UInt8], toName name: [UInt8], in folder: String) {
        let path = Array(folder.utf8) + [UInt8(ascii: "/")] + name + [0]
        let descriptor = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) } }
        precondition(descriptor >= 0, "cannot create \(name)")
        _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    @Test func namesWithEveryByteAreEachOpenedAndShownApart() throws {
        let folder = TestPaths.temporaryDirectory()
        let text = Array("not a photo".utf8)
        for byte in UInt8(1)...UInt8(255) where byte != UInt8(ascii: "/") {
            Self.write(text, toName: Array("n".utf8) + [byte] + Array(".jpg".utf8), in: folder)
        }
        let result = try runWithin(seconds: 120, TestPaths.binary, ["classify", "--format", "json", folder])
        #expect(result.status == 1)
        let objects = result.stdoutLines.compactMap(jsonObject)
        #expect(objects.count == 254)
        // Every name once, and from each line the exact bytes come back.
        var names = Set<[UInt8]>()
        for object in objects {
            let path = try #require(object["path"] as? String)
            let bytes: [UInt8]
            if let hex = object["path_hex"] as? String {
                bytes = stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! }
            } else {
                bytes = Array(path.utf8)
            }
            names.insert(Array(bytes.dropFirst(folder.utf8.count + 1)))
        }
        #expect(names.count == 254)
        #expect(names.allSatisfy { $0.count == 6 && $0.first == UInt8(ascii: "n") && $0.suffix(4).elementsEqual(".jpg".utf8) })
        let errorLines = result.stderrLines.dropLast()
        #expect(errorLines.count == 254 && Set(errorLines).count == 254)
        #expect(result.stderrLines.last == "plantleaf classify: 254 of 254 inputs failed")
        // No raw control character, no replacement character, in either stream.
        for output in [result.stdout, result.stderr] {
            #expect(!output.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0 == "\u{FFFD}" })
        }
        #expect(errorLines.contains("plantleaf classify: \(folder)/n\\x0a.jpg: not a PNG or JPEG image (starts with 6e 6f 74 20 61 20 70 68)"))
        #expect(errorLines.contains("plantleaf classify: \(folder)/n\\x1b.jpg: not a PNG or JPEG image (starts with 6e 6f 74 20 61 20 70 68)"))
        #expect(errorLines.contains("plantleaf classify: \(folder)/n\\xff.jpg: not a PNG or JPEG image (starts with 6e 6f 74 20 61 20 70 68)"))
        #expect(errorLines.contains("plantleaf classify: \(folder)/n\\\\.jpg: not a PNG or JPEG image (starts with 6e 6f 74 20 61 20 70 68)"))
    }

    /// A name that is not UTF-8 next to one that is its U+FFFD look-alike: each file's own
    /// result under its own name, in a folder and given directly.
    @Test func lookAlikeNamesKeepTheirOwnResults() throws {
        let folder = TestPaths.temporaryDirectory()
        Self.write(try FileReader.readAll(path: Self.leaf), toName: Array("a".utf8) + [0xFF] + Array(".jpg".utf8), in: folder)
        Self.write(Array("not a photo".utf8), toName: Array("a\u{FFFD}.jpg".utf8), in: folder)
        Self.write(Array("not a photo".utf8), toName: Array("a\\xff.jpg".utf8), in: folder)
        let expectedOut = ["\(folder)/a\\xff.jpg", "   99.6%  Apple — Apple scab"]
        let expectedErrors = ["plantleaf classify: \(folder)/a\\\\xff.jpg: not a PNG or JPEG image (starts with 6e 6f 74 20 61 20 70 68)",
                              "plantleaf classify: \(folder)/a\u{FFFD}.jpg: not a PNG or JPEG image (starts with 6e 6f 74 20 61 20 70 68)",
                              "plantleaf classify: 2 of 3 inputs failed"]
        let listed = try runWithin(seconds: 60, TestPaths.binary, ["classify", "--top-k", "1", folder])
        #expect(listed.status == 1)
        #expect(listed.stdoutLines == expectedOut)
        #expect(listed.stderrLines == expectedErrors)
        let given = try runPlantLeafInShell("exec \"$0\" classify --top-k 1 \"$1\"/a$'\\xff'.jpg \"$1\"/'a\\xff.jpg' \"$1\"/a$'\\xef\\xbf\\xbd'.jpg",
                                            [folder])
        #expect(given.status == 1)
        #expect(given.stdoutLines == expectedOut)
        #expect(given.stderrLines == expectedErrors)
    }
}
