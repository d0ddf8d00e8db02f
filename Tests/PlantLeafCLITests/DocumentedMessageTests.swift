import Foundation
@testable import PlantLeafCommandLine
import PlantLeafCore
import PlantLeafCamera
import PlantLeafBench
import PlantLeafMQTT
import PlantLeafTestSupport
import Testing

/// The documents quote the program's own lines; a quote the program no longer prints misleads
/// the reader who searches for it. A quote is any line of a fenced code block in README.md or
/// docs/*.md that starts with `plantleaf <command>: `, and every one must be accounted for in
/// `Self.quotes`, word for word:
/// - `.printed`: the real binary prints it (on stderr) for the input the document describes;
/// - `.remedy`: a camera fault this machine cannot provoke (it has no camera), made by the error
///   value and the CLI's own `Remedy.line`, exactly what `plantleaf camera` prints for it;
/// - `.heldBy`: another test that runs the program expects this very line (its source holds it);
/// - `.example`: measured output whose numbers change from run to run, with what it came from.
/// A `…` in a quote stands for text left out. A quote that is not in the table, or an entry no
/// document quotes any more, fails `everyQuoteIsAccountedFor`.
@Suite struct DocumentedMessageTests {
    struct Quote: CustomStringConvertible {
        var file: String
        var line: String
        var description: String { "\(file): \(line)" }
    }

    enum Source {
        case printed(Recipe)
        case remedy(any Error)
        case heldBy(String)
        case example(String)
    }

    /// A run of plantleaf: its arguments, with `{dir}` standing for a scratch folder that is also
    /// its working folder and that `setUp` fills.
    enum Recipe: String, CaseIterable {
        case badFiles, missingModel, notAModel, grayModel, labelCount, noRuntime, damagedModel
        case benchThreads, benchImage, benchCompare, cameraNull, mqttPassword
        case serveToken, serveRefusals, serveStandardInput, serveSlowClients
    }

    static let quotes: [String: Source] = [
        // docs/command-line.md, Renamed options.
        "plantleaf camera: warning: --json is deprecated and stops working in plantleaf 0.2.0: use --format json":
            .heldBy("PlantLeafCLITests/CameraCLITests.swift"),
        // docs/hardening.md, Bad input: one batch, ten bad inputs and two leaves.
        "plantleaf classify: bad-crc.png: corrupt PNG: IDAT: CRC error": .printed(.badFiles),
        "plantleaf classify: bomb.jpg: JPEG claims 60000x60000 pixels, above the 120-megapixel limit": .printed(.badFiles),
        "plantleaf classify: bomb.png: PNG claims 60000x60000 pixels, above the 120-megapixel limit": .printed(.badFiles),
        "plantleaf classify: text.jpg: not a JPEG or PNG photo: this file is text": .printed(.badFiles),
        // docs/hardening.md, files that are no image named in words (FileKindTests reads each kind's words).
        "plantleaf classify: scan.jpg: not a JPEG or PNG photo: this file is a PDF document":
            .example("a file holding %PDF-1.7; FileKindTests.eachKindIsToldFromItsFirstBytes"),
        "plantleaf classify: 2 of 2 inputs failed": .example("the two files above, classified together"),
        "plantleaf classify: truncated.jpg: truncated JPEG: Premature end of JPEG file": .printed(.badFiles),
        "plantleaf classify: truncated.png: truncated PNG: file is truncated": .printed(.badFiles),
        "plantleaf classify: zero-bytes.jpg: empty file (0 bytes)": .printed(.badFiles),
        "plantleaf classify: unreadable.jpg: cannot read file: permission denied": .printed(.badFiles),
        "plantleaf classify: empty-folder: folder holds no images (.jpg, .jpeg, .png)": .printed(.badFiles),
        "plantleaf classify: /nonexistent.jpg: no such file or directory": .printed(.badFiles),
        "plantleaf classify: 10 of 12 inputs failed": .printed(.badFiles),
        // docs/hardening.md: model, labels and runtime.
        "plantleaf classify: لم يُعثر على النموذج: /nonexistent/plant.tflite (شغّل `make setup` لربط النموذج الافتراضي، أو اذكر النموذج بالخيار --model)":
            .heldBy("PlantLeafCLITests/ClassifyLanguageTests.swift"),
        "plantleaf classify: model not found: Models/plantvillage_int8.tflite (run `make setup` to link the default model, or pass --model)":
            .printed(.missingModel),
        "plantleaf classify: /tmp/notes.tflite is not a TensorFlow Lite model: no TFL3 identifier at byte 4": .printed(.notAModel),
        "plantleaf classify: model /tmp/gray.tflite is not supported: input x is [1, 224, 224, 1], expected [1, H, W, 3] (one RGB image)":
            .printed(.grayModel),
        "plantleaf classify: labels samples/imagenet/imagenet_labels.txt has 1001 names but the model outputs 38 classes: pass --labels with the label file made for this model":
            .printed(.labelCount),
        "plantleaf classify: libLiteRt.so not found (looked in …/.build/release/libLiteRt.so, …, …/.runtime/lib/libLiteRt.so): run `make runtime` in a PlantLeaf checkout or the release archive's install.sh, or set PLANTLEAF_LITERT_LIB to its path":
            .printed(.noRuntime),
        "plantleaf classify: model half.tflite is damaged: operator_codes points past the end of the 1519252-byte file (the file is truncated or corrupted: copy or convert it again)":
            .printed(.damagedModel),
        // docs/journal.md, a time that is none.
        "plantleaf journal: --since must be a time: 2026-12-07T01:05 (this machine's time zone), today, yesterday, 2h or 30m or 3d ago, or ISO 8601 with its offset, 2026-12-07T01:05:00+02:00; got 'Tuesday' (see plantleaf journal --help)":
            .example("journal export --since Tuesday; JournalCLITests.wrongArgumentsAreOneLine expects it whole"),
        // docs/journal.md, a damaged row (the binary prints it for another path in the same test file).
        "plantleaf journal: journal /var/lib/plantleaf/journal.sqlite: readings row 5 passed over: its utc_offset holds 9000000000000000, which no row can hold (a damaged or hand-edited journal)":
            .heldBy("PlantLeafCLITests/JournalCLITests.swift"),
        // docs/command-line.md
        "plantleaf classify: cannot start the 63 helper threads of a 64-thread interpreter: resource temporarily unavailable (the process or user thread limit, ulimit -u, is reached)":
            .heldBy("PlantLeafCLITests/NumericRangeTests.swift"),
        "plantleaf camera: --log value 'log\\xff.jsonl' is not UTF-8: only classify's image paths may hold other bytes (see plantleaf camera --help)":
            .heldBy("PlantLeafCLITests/FileNameBytesTests.swift"),
        // docs/bench.md
        "plantleaf bench: --threads values must be from 1 to 64, got 0 (see plantleaf bench --help)": .printed(.benchThreads),
        "plantleaf bench: cannot read benchmark image /no/such/leaf.jpg: no such file or directory (pass --image FILE, or --synthetic to need no file)":
            .printed(.benchImage),
        "plantleaf bench compare: old.json is not a plantleaf bench JSON report: missing field machine (write one with plantleaf bench --json FILE)":
            .printed(.benchCompare),
        // docs/camera.md, Faults
        "plantleaf camera: /dev/video7: no such device; devices present: /dev/video0, /dev/video1 (see plantleaf camera --list)":
            .remedy(CameraError.noSuchDevice(path: "/dev/video7", existing: ["/dev/video0", "/dev/video1"])),
        "plantleaf camera: /dev/video1: not a video capture device (vivid (vivid) has no video capture); pick a capture node from plantleaf camera --list":
            .remedy(CameraError.notCaptureDevice(path: "/dev/video1", reason: .noVideoCapture(card: "vivid", driver: "vivid"))),
        "plantleaf camera: /dev/null: not a video capture device (not a V4L2 device); pick a capture node from plantleaf camera --list":
            .printed(.cameraNull),
        "plantleaf camera: /dev/video0: device is busy: another program is using the camera; close it (fuser /dev/video0 shows which) and retry":
            .remedy(CameraError.busy(path: "/dev/video0")),
        "plantleaf camera: /dev/video0: offers no MJPEG format PlantLeaf can read (it offers YUYV, UYVY, …, HSV4); try --pixel-format auto or another camera":
            .remedy(CameraError.noSupportedFormat(path: "/dev/video0", requested: .mjpeg, offered: ["YUYV", "UYVY", "NV12", "HSV4"])),
        "plantleaf camera: /dev/video0: camera unplugged during capture (ENODEV); reconnect it and run again":
            .remedy(CameraError.unplugged(path: "/dev/video0")),
        "plantleaf camera: /dev/video0: no frame within 5 s; check the camera is connected and not covered by another input (or raise --timeout)":
            .remedy(CameraError.noFrame(path: "/dev/video0", timeout: 5)),
        "plantleaf camera: /dev/video0: permission denied; add your user to the 'video' group (sudo usermod -aG video $USER, then log in again)":
            .remedy(CameraError.permissionDenied(path: "/dev/video0")),
        "plantleaf camera: /dev/video99: لا يوجد جهاز بهذا الاسم، ولا يوجد أي جهاز /dev/video*: صِل كاميرا بالجهاز (وانظر ما يقوله dmesg)":
            .heldBy("PlantLeafCLITests/CameraCLITests.swift"),
        // docs/camera.md, --every
        "plantleaf camera: /dev/video0: no such device; no /dev/video* devices exist; trying again in 1 s":
            .heldBy("PlantLeafCameraTests/CameraFixtureTests.swift"),
        "plantleaf camera: /dev/video0: no such device; no /dev/video* devices exist; trying again in 2 s":
            .example("the second retry of the fixture's unplug run; the fixture test checks the 1 s line whole and 'trying again in 2 s'"),
        "plantleaf camera: /dev/video0 (vivid, vivid): YUYV 256x256 at 59.94 fps, crop center, 4 buffers [auto; …]":
            .example("the set-up line of the fixture's unplug run"),
        "plantleaf camera: /dev/video0: camera back after 2 failed attempts":
            .example("the fixture's unplug run; the fixture test checks '/dev/video0: camera back after '"),
        // docs/camera.md, --mqtt
        "plantleaf camera: --mqtt: MQTT broker 127.0.0.1:1883 refused the connection: not authorised (check the user name and password); the user is in the --mqtt URL, the password in PLANTLEAF_MQTT_PASSWORD or --mqtt-password-file":
            .remedy(MQTTError.refused(broker: "127.0.0.1:1883", user: "camera", reason: "not authorised (check the user name and password)")),
        "plantleaf camera: --mqtt: MQTT URL 'mqtt://camera:***@127.0.0.1/plants' contains a password: put it in the environment variable PLANTLEAF_MQTT_PASSWORD or in a password file instead, and give only user@host in the URL (--mqtt-password-file names a password file)":
            .printed(.mqttPassword),
        "plantleaf camera: mqtt: connected to 127.0.0.1:18831": .example("a CameraMQTTTests-style run with a broker on a test port"),
        "plantleaf camera: mqtt: connection to 127.0.0.1:18831 lost: the connection was lost; retrying every 1 s, backing off to 60 s":
            .example("the same run, the broker stopped for 2 s"),
        "plantleaf camera: mqtt: 127.0.0.1:1883 sent a message though plantleaf subscribes to nothing: connection dropped; retrying every 1 s, backing off to 60 s":
            .example("a run against the flooding broker of CameraMQTTHostileBrokerTests, which expects the line with its own port"),
        "plantleaf camera: mqtt: cannot connect to 127.0.0.1:1883: it took the connection but sent no answer in 5 s; retrying every 1 s, backing off to 60 s":
            .example("a port that listens and never answers; CameraMQTTHostileBrokerTests.aBrokerThatNeverAnswersHoldsUpNoReading expects the line with its own port"),
        // Set-up lines and summaries: measured, their numbers differ on every run.
        "plantleaf camera: /dev/video0 (vivid, vivid): YUYV 640x480 at 59.94 fps, crop center, 4 buffers [auto; also offered: NV12 640x480 at 59.94 fps, RGB24 640x480 at 59.94 fps]":
            .example("the camera fixture's vivid device"),
        "plantleaf camera: 199 frames captured, 3 classified, 20 dropped by the driver, 0 flagged bad, 0 corrupt; frame age median 1110.7 ms, p99 1371 ms":
            .example("a camera fixture run"),
        "plantleaf camera: standard input: motion-JPEG stream, crop center, frames up to 16 MiB":
            .heldBy("PlantLeafCLITests/CameraStreamTests.swift"),
        "plantleaf camera: 73 frames read, 73 classified, 0 superseded, 0 broken, 0 over the size limit, 0 corrupt, 0 bytes skipped between frames; frame age median 15.5 ms, p99 62 ms":
            .example("a leaf piped in every 100 ms for 8 s"),
        "plantleaf camera: standard input: frame over the 16777216-byte limit: dropped": .example("the stream made for camera.md's example"),
        "plantleaf camera: standard input: damaged frame dropped: frame cut off after 3000 bytes (a new frame started)":
            .example("the stream made for camera.md's example"),
        "plantleaf camera: standard input: stream ended inside a frame (1000 bytes): dropped": .example("the stream made for camera.md's example"),
        "plantleaf camera: 42 frames read, 3 classified, 39 superseded, 2 broken, 1 over the size limit, 0 corrupt, 993004 bytes skipped between frames; frame age median 14.5 ms, p99 30 ms; the stream ended":
            .example("the stream made for camera.md's example"),
        "plantleaf camera: 30 frames read, 30 classified, 0 superseded, 0 broken, 0 over the size limit, 0 corrupt, 0 bytes skipped between frames; verdicts: 30 diagnosis, 0 uncertain, 0 no-leaf, 0 no-picture; frame age median 26.7 ms, p99 35.1 ms; the stream ended":
            .example("README.md's status block, the Early blight photo piped in for 3 s"),
        "plantleaf camera: leaf.fifo: motion-JPEG stream, crop center, frames up to 16 MiB":
            .example("README.md's status block; CameraStreamTests holds the same line for standard input"),
        // docs/serve.md
        "plantleaf serve: --listen must be an IP address and a port, as 127.0.0.1:8080, 0.0.0.0:8080 or [::]:8080, got 'localhost:80' (see plantleaf serve --help)":
            .heldBy("PlantLeafCLITests/ServeHTTPTests.swift"),
        "plantleaf camera: --name must be 1 to 64 characters with no control characters, got '' (see plantleaf camera --help)":
            .heldBy("PlantLeafCLITests/CameraStreamTests.swift"),
        "plantleaf serve: --keep-upload-photos keeps the photos in the journal: leave out --no-journal (see plantleaf serve --help)":
            .heldBy("PlantLeafCLITests/ServeHTTPTests.swift"),
        "plantleaf serve: cannot use short.token as the token file: its first line must be a token of at least 16 printable ASCII characters without spaces or semicolons (for example: head -c 24 /dev/urandom | base64 > short.token)":
            .printed(.serveToken),
        "plantleaf serve: listening on http://0.0.0.0:8080/ (2 model instances, uploads up to 25 MiB)":
            .example("serve --listen 0.0.0.0:8080 on the 2-core build machine; TestServer waits for the same line on 127.0.0.1"),
        "plantleaf serve: 401 POST /sign-in: wrong token": .heldBy("PlantLeafCLITests/ServeHTTPTests.swift"),
        "plantleaf serve: stopped by SIGTERM": .heldBy("PlantLeafCLITests/ServeHTTPTests.swift"),
        // docs/serve.md, The history: --log with --no-journal.
        "plantleaf serve: no history: it comes from the journal only, which --no-journal turns off; to see a camera's --log there, "
            + "run plantleaf journal import LOG.jsonl, then serve with --journal FILE": .heldBy("PlantLeafCLITests/ServeCameraTests.swift"),
        "plantleaf serve: 404 GET /nowhere: no such page: /nowhere": .printed(.serveRefusals),
        "plantleaf serve: 405 GET /api/classify: /api/classify takes POST, not GET": .printed(.serveRefusals),
        "plantleaf serve: 415 POST /api/classify: send the image as the body (image/jpeg, image/png) or as form field 'image' (multipart/form-data)":
            .printed(.serveRefusals),
        "plantleaf serve: 422 POST /api/classify: not an image PlantLeaf can read: not a JPEG or PNG photo: this file is text":
            .printed(.serveRefusals),
        "plantleaf serve: 400 POST /api/classify: the form has no field 'image'": .printed(.serveRefusals),
        "plantleaf serve: 413 POST /api/classify: the upload is 30000000 bytes, over the 25 MiB limit": .printed(.serveRefusals),
        "plantleaf serve: 404 GET /live: no camera: this server was started without --device or --input": .printed(.serveRefusals),
        "plantleaf serve: 408 POST /api/classify: dropped: the request was not in within 30 s": .printed(.serveSlowClients),
        "plantleaf serve: 408 a connection: dropped: the request was not in within 30 s": .printed(.serveSlowClients),
        "plantleaf serve: 408 POST /api/classify: the client sent nothing for 10 s": .printed(.serveSlowClients),
        // docs/serve.md, The greenhouse camera
        "plantleaf serve: --every is a camera option: give --device PATH or --input FILE|- too (see plantleaf serve --help)":
            .heldBy("PlantLeafCLITests/ServeCameraTests.swift"),
        "plantleaf serve: listening on http://127.0.0.1:18090/ (2 model instances, uploads up to 25 MiB)":
            .example("serve --listen 127.0.0.1:18090 --input - on the 2-core build machine"),
        "plantleaf serve: standard input: motion-JPEG stream, crop center, frames up to 16 MiB": .printed(.serveStandardInput),
        "plantleaf serve: 2305 frames read, 2296 classified, 9 superseded, 0 broken, 0 over the size limit, 0 corrupt, 0 bytes skipped between frames; verdicts: 2183 diagnosis, 113 uncertain, 0 no-leaf, 0 no-picture; frame age median 46.3 ms, p99 249.2 ms":
            .example("serve.md's run: 20 PlantVillage photos piped in one every 0.2 s for about 9 minutes, then SIGTERM"),
        "plantleaf serve: /dev/video0: no such device; no /dev/video* devices exist: plug a camera in (and check dmesg)":
            .remedy(CameraError.noSuchDevice(path: "/dev/video0", existing: [])),
        "plantleaf serve: standard input: no frame within 5 s; check the camera is connected and not covered by another input (or raise --timeout)":
            .remedy(CameraError.noFrame(path: "standard input", timeout: 5)),
        // docs/journal.md: JournalCLITests expects each of these whole for its own files.
        "plantleaf camera: journal /var/lib/plantleaf/journal.sqlite is not an SQLite database; move it away or give another --journal FILE; readings go on without it":
            .example("a text file as --journal; JournalCLITests.aJournalThatCannotBeKeptIsOneLineAndTheCameraReadsOn"),
        "plantleaf camera: journal /var/lib/plantleaf/journal.sqlite has schema 6, newer than this build reads (5); use the newer plantleaf, or give another --journal FILE; readings go on without it":
            .example("a journal whose schema_version says 6; JournalCLITests checks the line for version 99"),
        "plantleaf camera: journal /var/lib/plantleaf/journal.sqlite cannot be written (read-only); give a --journal FILE this user can write; readings go on without it":
            .example("a mode 444 journal in a mode 555 folder; JournalCLITests.aReadOnlyJournalIsOneLineAndTheCameraReadsOn"),
        "plantleaf camera: journal /var/lib/plantleaf/journal.sqlite: the disk is full; readings go on without it":
            .example("a 64 KiB tmpfs; JournalCLITests.aFullDiskIsOneLineAndTheCameraReadsOn"),
        "plantleaf camera: journal /var/lib/plantleaf/journal.sqlite falls behind (its writer is waiting): readings are not kept until it catches up":
            .example("another connection holding the write lock; JournalKeepingTests.whatOverflowsTheQueueIsCountedAndSaid, worded by CameraWordsTests"),
        "plantleaf camera: journal /var/lib/plantleaf/journal.sqlite caught up; 15 readings were not kept meanwhile":
            .example("the lock let go; JournalKeepingTests.whatOverflowsTheQueueIsCountedAndSaid, worded by CameraWordsTests"),
        "plantleaf camera: journal /var/lib/plantleaf/journal.sqlite was deleted or moved away; a new journal starts there":
            .example("rm of the journal; JournalKeepingTests, and serve's line in JournalKeepingCLITests"),
        "plantleaf journal: monitor.jsonl: 120 readings imported into /home/grower/.local/state/plantleaf/journal.sqlite, 2 events":
            .example("a log of 120 readings five minutes apart; JournalCLITests checks the line for its own log of 60"),
        "plantleaf journal: monitor.jsonl: 0 readings imported into /home/grower/.local/state/plantleaf/journal.sqlite, 0 events; 120 readings already in it passed over":
            .example("the same log imported again; JournalInputTests checks the line for its own log of 60"),
        "plantleaf camera: journal /dev/null is a character device, not a regular file; give a --journal FILE that is a regular file, or a path where nothing is yet; readings go on without it":
            .example("camera --journal /dev/null; JournalInputTests.aJournalThatIsNoRegularFileIsRefusedAtOnce checks it for /dev/null, /dev/full and /dev/zero"),
        // README.md
        "plantleaf serve: listening on http://127.0.0.1:8080/ (2 model instances, uploads up to 25 MiB)":
            .example("serve with no options on the 2-core build machine; TestServer waits for 'listening on http://127.0.0.1:'"),
    ]

    /// Every quoted line of README.md and docs/*.md, in document order.
    static func quotedLines() throws -> [Quote] {
        let docs = TestPaths.root + "/docs"
        let files = ["README.md"] + (try FileManager.default.contentsOfDirectory(atPath: docs))
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        var quotes: [Quote] = []
        for file in files {
            let text = try String(contentsOfFile: TestPaths.root + "/" + file, encoding: .utf8)
            var inBlock = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                    inBlock.toggle()
                } else if inBlock, line.range(of: #"^plantleaf [a-z]+( compare)?: "#, options: .regularExpression) != nil {
                    quotes.append(Quote(file: file, line: String(line)))
                }
            }
        }
        return quotes
    }

    /// Whether `actual` is `quoted`, where each `…` in `quoted` stands for any text.
    static func matches(_ quoted: String, _ actual: String) -> Bool {
        let pieces = quoted.components(separatedBy: "…")
        guard pieces.count > 1 else { return quoted == actual }
        guard actual.hasPrefix(pieces[0]), actual.hasSuffix(pieces[pieces.count - 1]),
              actual.count >= pieces[0].count + pieces[pieces.count - 1].count else { return false }
        var rest = actual.dropFirst(pieces[0].count).dropLast(pieces[pieces.count - 1].count)
        for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
            guard let range = rest.range(of: piece) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }

    @Test func everyQuoteIsAccountedFor() throws {
        let quoted = try Self.quotedLines()
        #expect(quoted.count >= 40, "found only \(quoted.count) quoted lines: has the way the documents quote changed?")
        let unaccounted = quoted.filter { Self.quotes[$0.line] == nil }
        #expect(unaccounted.isEmpty, """
            lines the documents quote as plantleaf's that the program may not print (fix the quote, or add \
            how it is produced to DocumentedMessageTests.quotes): \(unaccounted.map(\.description).joined(separator: "\n"))
            """)
        let stale = Set(Self.quotes.keys).subtracting(quoted.map(\.line)).sorted()
        #expect(stale.isEmpty, "DocumentedMessageTests.quotes lists lines no document quotes any more: \(stale)")
    }

    @Test func remedyQuotesAreWhatTheCommandLinePrintsForTheError() {
        for (line, source) in Self.quotes {
            guard case .remedy(let error) = source else { continue }
            // serve runs the same camera and prints its lines under its own name.
            let command = line.hasPrefix("plantleaf serve: ") ? "plantleaf serve: " : "plantleaf camera: "
            let prefix = error is MQTTError ? command + "--mqtt: " : command
            let printed = prefix + Remedy.line(error)
            #expect(Self.matches(line, printed), "quoted: \(line)\nprinted: \(printed)")
        }
    }

    /// The other test holds the line word for word (its message without the `plantleaf
    /// <command>: ` prefix, which it may add itself); string pieces joined with `+` count as one.
    @Test func heldQuotesAreExpectedWholeByTheTestsThatRunTheProgram() throws {
        for (line, source) in Self.quotes {
            guard case .heldBy(let file) = source else { continue }
            let text = try String(contentsOfFile: TestPaths.root + "/Tests/" + file, encoding: .utf8)
                .replacingOccurrences(of: #""\s*\+\s*""#, with: "", options: .regularExpression)
            let message = line.replacingOccurrences(of: #"^plantleaf [a-z]+( compare)?: "#, with: "", options: .regularExpression)
            #expect(text.contains(message), "\(file) does not expect the quoted line: \(line)")
        }
    }

    @Test(arguments: Recipe.allCases)
    func printedQuotesArePrintedByTheProgram(_ recipe: Recipe) throws {
        let lines = Self.quotes.filter { if case .printed(recipe) = $0.value { true } else { false } }.keys.sorted()
        try #require(!lines.isEmpty, "no quote uses \(recipe)")
        let folder = TestPaths.temporaryDirectory("docmessage-\(recipe)")
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let result = try Self.run(recipe, in: folder)
        // The documents write /tmp/NAME for a file the test makes in its own folder.
        let printed = result.stderrLines.map { $0.replacingOccurrences(of: folder + "/", with: "/tmp/") }
        for line in lines {
            #expect(printed.contains { Self.matches(line, $0) }, "quoted: \(line)\nprinted:\n\(printed.joined(separator: "\n"))")
        }
    }

    static func run(_ recipe: Recipe, in folder: String) throws -> CommandResult {
        func write(_ bytes: [UInt8], _ name: String) { TestImages.write(bytes, to: folder + "/" + name) }
        let leaf = try FileReader.readAll(path: TestPaths.appleScabLeaf)
        let model = try FileReader.readAll(path: TestPaths.defaultModel)
        switch recipe {
        case .badFiles:
            let png = TestImages.png((0..<(64 * 64 * 3)).map { UInt8(truncatingIfNeeded: $0 * 7) }, width: 64, height: 64,
                                     colorType: 2, bitDepth: 8)
            write(BadFiles.pngWithBadCRC(png), "bad-crc.png")
            write(BadFiles.jpegClaiming(width: 60000, height: 60000, from: leaf), "bomb.jpg")
            write(BadFiles.pngClaiming(width: 60000, height: 60000, from: png), "bomb.png")
            write(Array("this is not an image\n".utf8), "text.jpg")
            write(Array(leaf.prefix(leaf.count / 2)), "truncated.jpg")
            write(Array(png.prefix(png.count / 2)), "truncated.png")
            write([], "zero-bytes.jpg")
            write(leaf, "unreadable.jpg")
            chmod(folder + "/unreadable.jpg", 0)
            try FileManager.default.createDirectory(atPath: folder + "/empty-folder", withIntermediateDirectories: false)
            write(leaf, "leaf-1.jpg")
            write(leaf, "leaf-2.jpg")
            let inputs = ["bad-crc.png", "bomb.jpg", "bomb.png", "text.jpg", "truncated.jpg", "truncated.png", "zero-bytes.jpg",
                          "unreadable.jpg", "empty-folder", "/nonexistent.jpg", "leaf-1.jpg", "leaf-2.jpg"]
            // As root, without the capabilities that let root read a mode-000 file.
            if geteuid() == 0 {
                return try runCommand("/usr/bin/setpriv", ["--bounding-set=-dac_override,-dac_read_search", TestPaths.binary, "classify"] + inputs,
                                      currentDirectory: folder)
            }
            return try runPlantLeaf(["classify"] + inputs, currentDirectory: folder)
        case .missingModel:
            return try runPlantLeaf(["classify", "--model", "Models/plantvillage_int8.tflite", TestPaths.appleScabLeaf], currentDirectory: folder)
        case .notAModel:
            write(Array("Notes on the greenhouse models.\n".utf8), "notes.tflite")
            return try runPlantLeaf(["classify", "--model", folder + "/notes.tflite", TestPaths.appleScabLeaf], currentDirectory: folder)
        case .grayModel:
            // The PlantVillage model with its input shape [1, 224, 224, 3] rewritten to [1, 224, 224, 1].
            var gray = model
            let shape: [UInt8] = [1, 0, 0, 0, 224, 0, 0, 0, 224, 0, 0, 0, 3, 0, 0, 0]
            let offsets = (0...(gray.count - shape.count)).filter { gray[$0] == 1 && Array(gray[$0..<($0 + 16)]) == shape }
            try #require(offsets.count == 1)
            gray[offsets[0] + 12] = 1
            write(gray, "gray.tflite")
            return try runPlantLeaf(["classify", "--model", folder + "/gray.tflite", TestPaths.appleScabLeaf], currentDirectory: folder)
        case .labelCount:
            return try runPlantLeaf(["classify", "--labels", "samples/imagenet/imagenet_labels.txt", TestPaths.appleScabLeaf],
                                    currentDirectory: TestPaths.root)
        case .noRuntime:
            // A release build's place in a checkout that has no .runtime/.
            try FileManager.default.createDirectory(atPath: folder + "/.build/release", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: TestPaths.binary, toPath: folder + "/.build/release/plantleaf")
            return try runCommand(folder + "/.build/release/plantleaf", ["classify", "--model", TestPaths.defaultModel, "--labels",
                                                                         TestPaths.labels, TestPaths.appleScabLeaf],
                                  environment: ProcessInfo.processInfo.environment.filter { $0.key != "PLANTLEAF_LITERT_LIB" },
                                  currentDirectory: folder)
        case .damagedModel:
            write(Array(model.prefix(1_519_252)), "half.tflite")
            return try runPlantLeaf(["classify", "--model", "half.tflite", TestPaths.appleScabLeaf], currentDirectory: folder)
        case .benchThreads:
            return try runPlantLeaf(["bench", "--threads", "0"], currentDirectory: folder)
        case .benchImage:
            return try runPlantLeaf(["bench", "--image", "/no/such/leaf.jpg", "--runs", "1", "--warmup", "0"], currentDirectory: folder)
        case .benchCompare:
            write(Array(FuzzTargets.benchReportSeed(threads: "1", median: "2.5").utf8), "new.json")
            write(Array(#"{"schema_version": \#(BenchReport.schemaVersion), "plantleaf_version": "0.1.0"}"#.utf8), "old.json")
            return try runPlantLeaf(["bench", "compare", "old.json", "new.json"], currentDirectory: folder)
        case .cameraNull:
            return try runPlantLeaf(["camera", "--device", "/dev/null", "--frames", "1"], currentDirectory: folder)
        case .mqttPassword:
            return try runPlantLeaf(["camera", "--input", "/dev/null", "--mqtt", "mqtt://camera:secret@127.0.0.1/plants"], currentDirectory: folder)
        case .serveToken:
            write(Array("short\n".utf8), "short.token")
            return try runPlantLeaf(["serve", "--token-file", "short.token"], currentDirectory: folder)
        case .serveRefusals:
            return try serveRefusals()
        case .serveStandardInput:
            // An empty pipe as standard input: the stream ends at once and the server goes on,
            // until the SIGTERM that follows the camera's summary line.
            let script = #": | "$0" serve --listen 127.0.0.1:0 --jobs 1 --input - 2>"$1/stderr" & pid=$!; "#
                + #"for _ in $(seq 1200); do grep -q 'the stream ended' "$1/stderr" && break; sleep 0.1; done; "#
                + #"kill -TERM $pid; wait $pid; cat "$1/stderr" >&2"#
            return try runPlantLeafInShell(script, [folder])
        case .serveSlowClients:
            return try serveSlowClients()
        }
    }

    /// The requests docs/serve.md makes with curl, sent to a running server; its stderr holds the
    /// lines it printed for them.
    static func serveRefusals() throws -> CommandResult {
        let server = try TestServer(["--jobs", "1"])
        defer { server.stop() }
        let form = RawHTTP.form(field: "photo", fileName: "leaf.jpg", try FileReader.readAll(path: TestPaths.appleScabLeaf))
        let requests = [RawHTTP.request("GET", "/nowhere"), RawHTTP.request("GET", "/api/classify"),
                        RawHTTP.request("POST", "/api/classify", headers: ["Content-Type: text/plain"], body: Array("leaf".utf8)),
                        RawHTTP.request("POST", "/api/classify", headers: ["Content-Type: image/jpeg"], body: Array("not an image".utf8)),
                        RawHTTP.request("POST", "/api/classify", headers: [form.header], body: form.body),
                        RawHTTP.request("POST", "/api/classify", headers: ["Content-Type: image/jpeg", "Content-Length: 30000000"]),
                        RawHTTP.request("GET", "/live")]
        for request in requests { _ = try RawHTTP.exchange(port: server.port, request) }
        return CommandResult(status: 0, stdout: "", stderr: server.stderr)
    }

    /// The slow clients of docs/serve.md's Limits, against the default --request-timeout (30 s):
    /// one trickles a body, one its request line (a byte every 2 s), one sends a head and then nothing.
    static func serveSlowClients() throws -> CommandResult {
        let server = try TestServer(["--jobs", "1"])
        defer { server.stop() }
        let head = Array("POST /api/classify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\nContent-Length: 100000\r\n\r\n".utf8)
        let body = try RawHTTP.connect(port: server.port), line = try RawHTTP.connect(port: server.port)
        let silent = try RawHTTP.connect(port: server.port)
        defer { [body, line, silent].forEach { close($0) } }
        _ = RawHTTP.send(body, head)
        _ = RawHTTP.send(silent, head)
        let start = Date()
        while Date().timeIntervalSince(start) < 40 {
            RawHTTP.send(body, [0xFF])
            RawHTTP.send(line, Array("G".utf8))
            // A byte every 2 s keeps both under the 10 s idle limit; the drops' lines end the wait.
            if server.waitForStderr(containing: ["408 a connection: dropped", "408 POST /api/classify: dropped"], timeout: 2) { break }
        }
        return CommandResult(status: 0, stdout: "", stderr: server.stderr(containing: "408 a connection: dropped"))
    }

    /// The release archive's README and docs/install.md name the same glibc for each architecture.
    @Test func releaseReadmeAndInstallPageAgreeOnGlibc() throws {
        let readme = try String(contentsOfFile: TestPaths.root + "/scripts/release/README.txt", encoding: .utf8)
        let install = try String(contentsOfFile: TestPaths.root + "/docs/install.md", encoding: .utf8)
        func version(_ text: String, after architecture: String, pattern: String) -> String? {
            guard let start = text.range(of: architecture) else { return nil }
            let rest = text[start.upperBound...]
            guard let found = rest.range(of: pattern, options: .regularExpression) else { return nil }
            return String(rest[found]).filter { $0.isNumber || $0 == "." }
        }
        for architecture in ["x86_64", "aarch64"] {
            let inReadme = version(readme, after: "\(architecture):", pattern: #"glibc 2\.[0-9]+"#)
            let inInstall = version(install, after: "**\(architecture):**", pattern: #"glibc ≥ 2\.[0-9]+"#)
            #expect(inReadme != nil && inReadme == inInstall, "\(architecture): README.txt says \(inReadme ?? "nothing"), install.md \(inInstall ?? "nothing")")
        }
    }
}
