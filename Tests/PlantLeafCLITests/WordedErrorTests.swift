import Foundation
import Glibc
@testable import PlantLeafCommandLine
@testable import PlantLeafCore
import PlantLeafCamera
import PlantLeafJournal
import PlantLeafMQTT
import PlantLeafSupport
import Testing

/// The errors classify and camera print, with their remedies, come from the catalogue: every
/// case reads whole in every language, its values (paths, numbers, bytes) as given.
@Suite struct WordedErrorTests {
    /// Every case of every error with catalogue words, and the values its line must show.
    static let examples: [(error: any WordedError, values: [String])] = [
        (ImageError.empty, ["0"]),
        (ImageError.unknownFormat(firstBytes: Array("%PDF-1.7".utf8)), ["PDF"]),
        (ImageError.unknownFormat(firstBytes: Array("GIF89a".utf8)), ["GIF"]),
        (ImageError.unknownFormat(firstBytes: Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBP".utf8)), ["WebP"]),
        (ImageError.unknownFormat(firstBytes: [0, 0, 0, 0x18] + Array("ftypheic".utf8)), ["HEIC", "AVIF", "JPEG"]),
        (ImageError.unknownFormat(firstBytes: Array("BM".utf8)), ["BMP"]),
        (ImageError.unknownFormat(firstBytes: [0x4D, 0x4D, 0x00, 0x2A]), ["TIFF"]),
        (ImageError.unknownFormat(firstBytes: [0x50, 0x4B, 0x03, 0x04]), ["ZIP"]),
        (ImageError.unknownFormat(firstBytes: Array("notes".utf8)), []),
        (ImageError.unknownFormat(firstBytes: [0x00, 0xFE]), ["PlantLeaf"]),
        (ImageError.tooLarge(format: .png, width: 60000, height: 50000, limit: 120_000_000), ["PNG", "60000x50000", "120"]),
        (ImageError.truncated(format: .jpeg, detail: "Premature end of JPEG file"), ["JPEG", "Premature end of JPEG file"]),
        (ImageError.corrupt(format: .png, detail: "IDAT: CRC error"), ["PNG", "IDAT: CRC error"]),
        (ImageError.missingData(format: .jpeg, detail: "no scan"), ["JPEG", "no scan"]),
        (ImageError.unsupported(format: .jpeg, detail: "12-bit samples"), ["JPEG", "12-bit samples"]),
        (ImageError.overBudget(format: .png, detail: "4097 chunks"), ["PNG", "4097 chunks"]),
        (ImageError.outOfMemory(format: .jpeg), ["JPEG"]),
        (ImageError.cancelled, []),
        (ClassifyError.unreadable(path: "/photos/a.jpg", reason: .system(SystemError(EACCES))), ["/photos/a.jpg"]),
        (ClassifyError.undecodable(path: "/photos/b.png", .empty), ["/photos/b.png"]),
        (ClassifyError.runtime(path: "/photos/c.jpg", .callFailed(function: "LiteRtRunCompiledModel", status: 3, context: "c.jpg")),
         ["/photos/c.jpg", "LiteRtRunCompiledModel", "c.jpg", "3"]),
        (InputError<ImageError>.unusable(.outOfMemory(format: .png)), ["PNG"]),
        (InputError<ImageError>.runtime(.invalidThreadCount(0)), ["0"]),
        (LabelError.unreadable(path: "labels.txt", reason: .system(SystemError(ENOENT))), ["labels.txt"]),
        (LabelError.notText(path: "labels.txt"), ["labels.txt", "UTF-8"]),
        (LabelError.empty(path: "labels.txt"), ["labels.txt"]),
        (LabelError.countMismatch(path: "imagenet_labels.txt", labels: 1001, classes: 38), ["imagenet_labels.txt", "1001", "38"]),
        (RuntimeError.libraryNotFound(searched: ["/opt/a/libLiteRt.so", "/opt/b/libLiteRt.so"]),
         ["/opt/a/libLiteRt.so, /opt/b/libLiteRt.so", "make runtime", "PLANTLEAF_LITERT_LIB"]),
        (RuntimeError.libraryUnusable(path: "/opt/libLiteRt.so", reason: "wrong ELF class"), ["/opt/libLiteRt.so", "wrong ELF class", "2.3.0"]),
        (RuntimeError.libraryPathNotAPath(value: "libLiteRt.so"), ["./libLiteRt.so", "'libLiteRt.so'", "PLANTLEAF_LITERT_LIB"]),
        (RuntimeError.modelNotFound(path: "Models/m.tflite"), ["Models/m.tflite", "make setup", "--model"]),
        (RuntimeError.modelUnreadable(path: "m.tflite", reason: .notRegularFile(mode: S_IFIFO)), ["m.tflite"]),
        (RuntimeError.notAModel(path: "notes.tflite", reason: "no TFL3 identifier at byte 4"), ["notes.tflite", "no TFL3 identifier at byte 4"]),
        (RuntimeError.damagedModel(path: "half.tflite", reason: "operator_codes points past the end"), ["half.tflite", "operator_codes points past the end"]),
        (RuntimeError.unsupportedModel(path: "gray.tflite", reason: "input x is [1, 224, 224, 1]"), ["gray.tflite", "input x is [1, 224, 224, 1]"]),
        (RuntimeError.invalidThreadCount(-2), ["-2"]),
        (RuntimeError.invalidInputSide(7, allowed: 32...1024), ["7", "32", "1024"]),
        (RuntimeError.threadsUnavailable(threads: 64, reason: "resource temporarily unavailable"), ["63", "64", "resource temporarily unavailable", "ulimit -u"]),
        (ClassifierSetupError.runtime(.modelNotFound(path: "m.tflite")), ["m.tflite", "make setup", "--model"]),
        (ClassifierSetupError.labels(.countMismatch(path: "l.txt", labels: 3, classes: 38)), ["l.txt", "3", "38", "--labels"]),
        (ClassifierSetupError.labels(.unreadable(path: "l.txt", reason: .system(SystemError(EACCES)))), ["l.txt", "make setup", "--labels"]),
        (SecondOpinionError.notConfigured, []),
        (SecondOpinionError.model(.modelNotFound(path: "generalist.tflite")), ["generalist.tflite"]),
        (SecondOpinionError.reference(.tooFewPhotos(count: 2, minimum: 8)), ["2", "8"]),
        (LeafReferenceError.unreadable(path: "ref.txt", reason: .notRegularFile(mode: S_IFDIR)), ["ref.txt"]),
        (LeafReferenceError.notAReference(path: "ref.txt"), ["ref.txt"]),
        (LeafReferenceError.damaged(path: "ref.txt", problem: "line 3: checksum"), ["ref.txt", "line 3: checksum"]),
        (LeafReferenceError.wrongLength(path: "ref.txt", classes: 1000, expected: 1001), ["ref.txt", "1000", "1001"]),
        (LeafReferenceError.wrongInputSide(path: "ref.txt", side: 160, expected: 224), ["ref.txt", "160×160", "224×224"]),
        (LeafReferenceError.wrongGeneralist(path: "ref.txt", madeWith: "a.tflite 10", expected: "b.tflite 20"), ["ref.txt", "a.tflite 10", "b.tflite 20"]),
        (LeafReferenceError.tooFewPhotos(count: 3, minimum: 8), ["3", "8"]),
        (ThreadStartError(code: EAGAIN), []),
    ] + (RuntimeError.statusNames.keys.sorted() + [99]).map { status in
        (RuntimeError.callFailed(function: "LiteRtCreateModel", status: status, context: "m.tflite"), ["LiteRtCreateModel", "m.tflite", String(status)])
    } + fileProblems.map { (ClassifyError.unreadable(path: "/photos/d.jpg", reason: $0.problem), ["/photos/d.jpg"] + $0.values) }
        + cameraErrors + mqttErrors + mqttSettingsProblems + journalErrors

    /// Every case of the camera's errors and of each of their reasons, and a dropped frame's.
    static let cameraErrors: [(error: any WordedError, values: [String])] = [
        (CameraError.noSuchDevice(path: "/dev/video99", existing: []), ["/dev/video99", "/dev/video*", "dmesg"]),
        (CameraError.noSuchDevice(path: "/dev/video7", existing: ["/dev/video0", "/dev/video1"]),
         ["/dev/video7", "/dev/video0, /dev/video1", "plantleaf camera --list"]),
        (CameraError.permissionDenied(path: "/dev/video0"), ["/dev/video0", "'video'", "sudo usermod -aG video $USER"]),
        (CameraError.busy(path: "/dev/video2"), ["/dev/video2", "fuser /dev/video2"]),
        (CameraError.noSupportedFormat(path: "/dev/video0", requested: nil, offered: ["H264"]),
         ["/dev/video0", "YUYV, NV12, RGB24", "MJPEG", "(", "H264", "--pixel-format auto"]),
        (CameraError.noSupportedFormat(path: "/dev/video0", requested: .nv12, offered: []), ["/dev/video0", "NV12"]),
        (CameraError.noFrame(path: "/dev/video0", timeout: 2.5), ["/dev/video0", "2.5", "--timeout"]),
        (CameraError.unplugged(path: "/dev/video0"), ["/dev/video0", "ENODEV"]),
        (CameraError.cannotOpen(path: "/dev/video0", reason: .system(SystemError(EIO))), ["/dev/video0"]),
        (CameraError.cannotOpen(path: "standard input", reason: .standardInputIsTerminal), ["standard input", "motion-JPEG"]),
        (CameraError.cannotOpen(path: "/dev/null", reason: .notAStream), ["/dev/null"]),
        (CameraError.cannotOpen(path: "frames", reason: .cannotMakeSaveFolder(FileWriteError(reason: "read-only file system"))),
         ["frames", "read-only file system"]),
        (CameraError.cannotOpen(path: "frames/frame-000001-x.jpg", reason: .cannotEncodeFrame(.outOfMemory(format: .jpeg))),
         ["frames/frame-000001-x.jpg", "JPEG"]),
        (CameraError.cannotOpen(path: "frames/frame-000002-x.jpg", reason: .cannotSaveFrame(FileWriteError(reason: "no space left on device"))),
         ["frames/frame-000002-x.jpg", "no space left on device"]),
        (CameraError.notCaptureDevice(path: "/dev/null", reason: .notV4L2), ["/dev/null", "V4L2", "plantleaf camera --list"]),
        (CameraError.notCaptureDevice(path: "/dev/video1", reason: .queryFailed(SystemError(EIO))), ["/dev/video1", "VIDIOC_QUERYCAP"]),
        (CameraError.notCaptureDevice(path: "/dev/video1", reason: .multiPlanarOnly(card: "rkisp1")), ["/dev/video1", "rkisp1"]),
        (CameraError.notCaptureDevice(path: "/dev/video1", reason: .noVideoCapture(card: "vivid out", driver: "vivid")),
         ["/dev/video1", "vivid out (vivid)"]),
        (CameraError.notCaptureDevice(path: "/dev/video1", reason: .cannotStream(card: "old cam", driver: "gspca")), ["/dev/video1", "old cam (gspca)"]),
        (CameraError.setupFailed(path: "/dev/video0", step: .setFormat(.yuyv, FrameSize(width: 640, height: 480)), reason: .system(SystemError(EINVAL))),
         ["/dev/video0", "YUYV", "640x480", "VIDIOC_S_FMT", "--size"]),
        (CameraError.setupFailed(path: "/dev/video0", step: .checkFormat, reason: .driverSwitched(to: "H264")), ["VIDIOC_S_FMT", "H264"]),
        (CameraError.setupFailed(path: "/dev/video0", step: .requestBuffers(count: 4), reason: .system(SystemError(ENOMEM))), ["4", "VIDIOC_REQBUFS"]),
        (CameraError.setupFailed(path: "/dev/video0", step: .checkBuffers, reason: .tooFewBuffers(granted: 1)), ["VIDIOC_REQBUFS", "1", "2"]),
        (CameraError.setupFailed(path: "/dev/video0", step: .queryBuffer, reason: .system(SystemError(EINVAL))), ["VIDIOC_QUERYBUF"]),
        (CameraError.setupFailed(path: "/dev/video0", step: .mapBuffer(index: 3), reason: .system(SystemError(ENOMEM))), ["3", "mmap"]),
        (CameraError.setupFailed(path: "/dev/video0", step: .queueBuffer(index: 0), reason: .system(SystemError(EINVAL))), ["0", "VIDIOC_QBUF"]),
        (CameraError.setupFailed(path: "/dev/video0", step: .startStream, reason: .system(SystemError(ENOSPC))), ["VIDIOC_STREAMON"]),
        (CameraError.setupFailed(path: "/dev/video0", step: .requeueBuffer(index: 2), reason: .system(SystemError(EIO))), ["2", "VIDIOC_QBUF"]),
        (CameraError.setupFailed(path: "plantleaf", step: .startCaptureThread, reason: .system(SystemError(EAGAIN))), ["plantleaf"]),
        (CameraError.setupFailed(path: "plantleaf", step: .startModelThread, reason: .system(SystemError(EAGAIN))), ["plantleaf"]),
        (CameraError.setupFailed(path: "plantleaf", step: .makeStopPipe, reason: .system(SystemError(EMFILE))), ["plantleaf"]),
        (CameraError.streamFailed(path: "/dev/video0", reason: .stoppedSending), ["/dev/video0"]),
        (CameraError.streamFailed(path: "/dev/video0", reason: .inference(.invalidThreadCount(0))), ["/dev/video0", "0"]),
        (CameraError.streamFailed(path: "standard input", reason: .poll(SystemError(EINVAL))), ["standard input", "poll: "]),
        (CameraError.streamFailed(path: "standard input", reason: .read(SystemError(EIO))), ["standard input", "read: "]),
        (CameraError.streamFailed(path: "/dev/video0", reason: .dequeue(SystemError(EIO))), ["VIDIOC_DQBUF: "]),
        (CameraError.streamFailed(path: "/dev/video0", reason: .unknownBuffer(index: 9)), ["/dev/video0", "9"]),
        (FrameError.tooShort(bytes: 100, expected: 153_600), ["100", "153600"]),
        (FrameError.corruptJPEG(.truncated(format: .jpeg, detail: "Premature end of JPEG file")), ["MJPEG", "Premature end of JPEG file"]),
    ]

    /// Every case of MQTT's set-up errors, each remedy among them; the reasons are libmosquitto's,
    /// the loader's or the settings' check's, passed on as they are.
    static let mqttErrors: [(error: any WordedError, values: [String])] = [
        (MQTTError.invalidURL(url: "http://broker/plants", problem: .unknownScheme("http")),
         ["http://broker/plants", "'http'", "mqtt://[user@]host[:port]/base/topic", "mqtts://…"]),
        (MQTTError.passwordInURL(url: "mqtt://u:***@h/t"), ["mqtt://u:***@h/t", "PLANTLEAF_MQTT_PASSWORD", "user@host", "--mqtt-password-file"]),
        (MQTTError.invalidBaseTopic(topic: "plants/#", problem: .wildcard("#")), ["plants/#", "'#'"]),
        (MQTTError.passwordWithoutUser(passwordFile: "/etc/plantleaf/pw"), ["/etc/plantleaf/pw", "mqtt://user@host/topic"]),
        (MQTTError.passwordFileUnreadable(path: "/etc/plantleaf/pw", reason: .system(SystemError(EACCES))), ["/etc/plantleaf/pw"]),
        (MQTTError.passwordFileUnreadable(path: "/etc/plantleaf/pw", reason: .overLimit(limit: 65_536)), ["/etc/plantleaf/pw", "64 KiB"]),
        (MQTTError.passwordNotText(path: "/etc/plantleaf/pw"), ["/etc/plantleaf/pw", "NUL", "UTF-8"]),
        (MQTTError.passwordFileEmpty(path: "/etc/plantleaf/pw"), ["/etc/plantleaf/pw"]),
        (MQTTError.caFileWithoutTLS(path: "ca.pem"), ["ca.pem", "mqtt://", "mqtts://", "--mqtt-ca"]),
        (MQTTError.caFileUnreadable(path: "ca.pem", reason: .notRegularFile(mode: S_IFDIR)), ["ca.pem"]),
        (MQTTError.libraryMissing(reason: "libmosquitto.so.1: cannot open shared object file: No such file or directory"),
         ["libmosquitto.so.1", "sudo apt install libmosquitto1"]),
        (MQTTError.libraryMissing(reason: "libssl.so.3: cannot open shared object file: Permission denied"),
         ["libmosquitto.so.1", "libssl.so.3: cannot open shared object file: Permission denied", "sudo apt install libmosquitto1"]),
        (MQTTError.libraryUnusable(reason: "mosquitto_lib_init failed"),
         ["libmosquitto.so.1", "mosquitto_lib_init failed", "sudo apt install --reinstall libmosquitto1"]),
        (MQTTError.unknownHost(host: "broker.lan", reason: "name or service not known"), ["broker.lan", "name or service not known"]),
        (MQTTError.refused(broker: "127.0.0.1:1883", user: nil, reason: "not authorised"),
         ["127.0.0.1:1883", "not authorised", "mqtt://user@host/topic", "PLANTLEAF_MQTT_PASSWORD", "--mqtt-password-file"]),
        (MQTTError.refused(broker: "127.0.0.1:1883", user: "camera", reason: "not authorised"),
         ["127.0.0.1:1883", "not authorised", "--mqtt", "PLANTLEAF_MQTT_PASSWORD", "--mqtt-password-file"]),
        (MQTTError.tlsFailed(broker: "h:8883", reason: "certificate verify failed"), ["h:8883", "certificate verify failed", "--mqtt-ca"]),
        (MQTTError.setupFailed(step: "mosquitto_new", reason: "out of memory"), ["mosquitto_new", "out of memory"]),
    ]

    /// Every reason a --mqtt URL or its base topic is refused, each in its error's line.
    static let mqttSettingsProblems: [(error: any WordedError, values: [String])] = [
        (.noScheme, ["mqtt://", "mqtts://"]), (.unknownScheme("tcp"), ["'tcp'", "mqtt", "mqtts"]), (.queryString, ["(?…)"]), (.noBaseTopic, []),
        (.badUserName, ["'@'", "%-escape"]), (.userNameNotText, ["UTF-8"]), (.userNameControlCharacter(codePoint: "U+001B"), ["U+001B"]),
        (.unclosedBracket, ["'['", "']'", "IPv6"]), (.unexpectedAfterIPv6("x"), ["'x'", "IPv6"]), (.ipv6WithoutBrackets, ["IPv6", "mqtt://[::1]:1883/…"]),
        (.noHost, []), (.hostCharacter(" "), ["' '"]), (.invalidPort("99999"), ["'99999'", "1", "65535"]),
    ].map { (problem: MQTTURLProblem, values: [String]) in
        (MQTTError.invalidURL(url: "mqtt://broker/plants", problem: problem), values + ["mqtt://broker/plants", "mqtt://[user@]host[:port]/base/topic"])
    } + [
        (.wildcard("+"), ["'+'"]), (.reserved, ["'$'"]), (.emptyLevel, ["('//')"]), (.controlCharacter, []),
        (.tooLong(bytes: 65_536, limit: 65_535), ["65536", "65535"]),
    ].map { (problem: MQTTTopicProblem, values: [String]) in (MQTTError.invalidBaseTopic(topic: "plants", problem: problem), values + ["'plants'"]) }

    /// Every case of the journal's errors, each remedy among them; SQLite's and the loader's words
    /// and the SQL step are values, passed on as they are.
    static let journalErrors: [(error: any WordedError, values: [String])] = [
        (JournalError.libraryMissing(reason: "libsqlite3.so.0: cannot open shared object file: No such file or directory"),
         ["libsqlite3.so.0", "libsqlite3.so.0: cannot open shared object file: No such file or directory", "sudo apt install libsqlite3-0"]),
        (JournalError.libraryUnusable(reason: "libsqlite3.so.0 does not export sqlite3_prepare_v3"),
         ["libsqlite3.so.0", "libsqlite3.so.0 does not export sqlite3_prepare_v3", "sudo apt install --reinstall libsqlite3-0"]),
        (JournalError.notFound(path: "/var/lib/plantleaf/journal.sqlite"), ["/var/lib/plantleaf/journal.sqlite", "camera", "serve", "--journal FILE"]),
        (JournalError.notARegularFile(path: "/var/lib/plantleaf/journal.sqlite", mode: S_IFIFO), ["/var/lib/plantleaf/journal.sqlite", "FIFO", "--journal FILE"]),
        (JournalError.notADatabase(path: "/var/lib/plantleaf/journal.sqlite"), ["/var/lib/plantleaf/journal.sqlite", "SQLite", "--journal FILE"]),
        (JournalError.notAJournal(path: "/var/lib/plantleaf/journal.sqlite"), ["/var/lib/plantleaf/journal.sqlite", "SQLite", "--journal FILE"]),
        (JournalError.newerSchema(path: "j.sqlite", version: 99), ["j.sqlite", "99", String(Journal.schemaVersion), "--journal FILE"]),
        (JournalError.readOnly(path: "j.sqlite"), ["j.sqlite", "--journal FILE"]),
        (JournalError.diskFull(path: "j.sqlite"), ["j.sqlite"]),
        (JournalError.busy(path: "j.sqlite"), ["j.sqlite"]),
        (JournalError.failed(path: "j.sqlite", step: "inserting a reading", reason: "database is locked"),
         ["j.sqlite", "inserting a reading", "database is locked"]),
    ]

    /// Every way a path can give nothing to classify, each errno the catalogue has words for among them.
    static let fileProblems: [(problem: FileReadError, values: [String])] = [
        (.notRegularFile(mode: S_IFDIR), []), (.notRegularFile(mode: S_IFIFO), []), (.notRegularFile(mode: S_IFCHR), []),
        (.notRegularFile(mode: S_IFBLK), []), (.notRegularFile(mode: S_IFSOCK), []), (.notRegularFile(mode: 0), []),
        (.tooLarge(size: 600_000_000, limit: 512 << 20), ["600000000", "512 MiB"]), (.overLimit(limit: 64 << 10), ["64 KiB"]),
        (.standardInputIsTerminal, []), (.danglingLink, []), (.linkLoop, []), (.pathTooLong, ["PATH_MAX", "4096"]),
        (.folderHoldsNoImages, [".jpg, .jpeg, .png"]), (.folderAlreadySearched, []), (.cannotSearchFolder(SystemError(EACCES)), []),
    ] + SystemError.names.keys.sorted().map { (.system(SystemError($0)), []) }

    /// Each way the generalist check can be skipped, one of each remedy, and the values shown.
    static let skippedChecks: [(problem: SecondOpinionError, values: [String])] = [
        (.model(.invalidInputSide(7, allowed: 32...1024)), ["7", "PLANTLEAF_GENERALIST_SIDE", "32", "1024"]),
        (.model(.modelNotFound(path: "g.tflite")), ["g.tflite", "make setup"]),
        (.reference(.wrongLength(path: "ref.txt", classes: 10, expected: 1001)), ["ref.txt", "plantleaf calibrate DIR"]),
        (.reference(.wrongGeneralist(path: "ref.txt", madeWith: "a.tflite 10", expected: "b.tflite 20")),
         ["ref.txt", "a.tflite 10", "b.tflite 20", "make build", "scripts/setup.sh leaf-reference BINARY", "plantleaf calibrate DIR"]),
        (.reference(.unreadable(path: "ref.txt", reason: .system(SystemError(ENOENT)))), ["ref.txt", "make setup", "plantleaf calibrate DIR"]),
        (.notConfigured, ["make setup"]),
    ]

    /// Every line the examples make in `catalogue`: each error with its remedy, then each skipped-check line.
    static func lines(in catalogue: Catalogue) -> [(line: String, values: [String])] {
        examples.map { (Remedy.line($0.error, in: catalogue), $0.values) }
            + skippedChecks.map { (Remedy.skippedCheckLine($0.problem, in: catalogue), $0.values) }
    }

    @Test func everyErrorReadsWholeInEveryLanguageWithItsValues() throws {
        let arabic = try #require(Catalogue(language: "ar"))
        let english = Self.lines(in: .english), translated = Self.lines(in: arabic)
        for ((englishLine, values), (arabicLine, _)) in zip(english, translated) {
            Self.expectTranslated(english: englishLine, arabic: arabicLine, values: values)
        }
    }

    /// Both lines whole with their values, and the Arabic one, once its values and technical
    /// tokens are taken out, with no English word left.
    static func expectTranslated(english englishLine: String, arabic arabicLine: String, values: [String],
                                 sourceLocation: SourceLocation = #_sourceLocation) {
        for line in [englishLine, arabicLine] {
            #expect(line.range(of: #"\{[a-z-]+\}"#, options: .regularExpression) == nil, "unfilled: \(line)", sourceLocation: sourceLocation)
            #expect(values.filter { !line.contains($0) } == [], "values missing from: \(line)", sourceLocation: sourceLocation)
        }
        #expect(arabicLine != englishLine, sourceLocation: sourceLocation)
        var words = values.sorted { $0.count > $1.count }.reduce(arabicLine) { $0.replacing($1, with: "") }
        words = words.replacing(#/`[^`]*`|--[a-z-]+|PLANTLEAF_[A-Z_]+|VIDIOC_[A-Z_]+|\$USER|/dev/[a-z0-9*]+|plantleaf [a-z]+/#, with: "")
        let english = words.matches(of: #/[A-Za-z][A-Za-z0-9.\-]{2,}/#).map { String($0.output) }.filter { !technicalWords.contains($0) }
        #expect(english == [], "English in: \(arabicLine)", sourceLocation: sourceLocation)
    }

    /// Names of formats, programs and systems, which read the same in any language.
    static let technicalWords: Set<String> = ["PNG", "JPEG", "UTF-8", "libLiteRt.so", "LiteRT", "TensorFlow", "Lite", "PlantLeaf", "plantleaf", "install.sh",
                                              "aarch64", "glibc", "Raspberry", "Bookworm", "ai-edge-litert", "ulimit", "flatbuffer", "FIFO",
                                              "V4L2", "MJPEG", "motion-JPEG", "YUYV", "NV12", "RGB24", "ENODEV", "mmap", "dmesg", "sudo", "usermod",
                                              "video", "fuser", "auto", "TERM", "dumb", "MiB", "Ctrl-C", "SIGTERM",
                                              "MQTT", "mqtt", "mqtts", "TLS", "libmosquitto1", "NUL", "IPv6",
                                              "SQLite", "libsqlite3-0"]

    /// Today's English words, kept byte for byte (the end-to-end tests pin more of them).
    @Test func englishIsTheTextItWas() {
        #expect(Remedy.line(CameraError.noSupportedFormat(path: "/dev/video2", requested: nil, offered: ["H264"]))
            == "/dev/video2: offers no YUYV, NV12, RGB24 or MJPEG format PlantLeaf can read (it offers H264); try --pixel-format auto or another camera")
        #expect(Remedy.line(CameraError.setupFailed(path: "/dev/video0", step: .setFormat(.yuyv, FrameSize(width: 640, height: 480)),
                                                    reason: .system(SystemError(EINVAL))))
            == "/dev/video0: setting YUYV 640x480 (VIDIOC_S_FMT) failed: invalid argument; unplug and replug the camera, or try another --size or --format")
        #expect(CameraError.notCaptureDevice(path: "/dev/video1", reason: .multiPlanarOnly(card: "rkisp1")).description
            == "/dev/video1: not a video capture device (rkisp1 captures multi-planar only, which PlantLeaf does not read)")
        #expect(FrameError.corruptJPEG(.truncated(format: .jpeg, detail: "Premature end of JPEG file")).description
            == "MJPEG frame: truncated JPEG: Premature end of JPEG file")
        #expect(Remedy.line(ClassifyError.undecodable(path: "t.jpg", .unknownFormat(firstBytes: Array("th".utf8))), in: .english)
            == "t.jpg: not a JPEG or PNG photo: this file is text")
        #expect(ClassifyError.unreadable(path: "u.jpg", reason: .system(SystemError(EACCES))).reason == "cannot read file: permission denied")
        #expect(Remedy.skippedCheckLine(.notConfigured) == "warning: generalist check skipped in every result: no generalist model and leaf "
            + "reference are set up: run `make setup` (it makes the default one from the sample leaves), or `plantleaf calibrate DIR`")
    }

    /// Every error and remedy text in the catalogue is one the examples print: a case's words
    /// cannot go untested, nor a text stay behind when its case is gone.
    @Test func theExamplesUseEveryErrorAndRemedyText() {
        let english = Catalogue.english
        let keys = english.ownKeys.filter { $0.hasPrefix("error.") || $0.hasPrefix("remedy.") }
        let marked = Catalogue(code: "marked", texts: Dictionary(uniqueKeysWithValues: keys.map { ($0, "⟨\($0)⟩" + english[$0]) }))
        let printed = Self.lines(in: marked).map(\.line).joined(separator: "\n")
        let used = Set(printed.matches(of: #/⟨([A-Za-z0-9.\-]+)⟩/#).map { String($0.output.1) })
        #expect(keys.subtracting(used).sorted() == [], "no example prints these")
    }

    /// English says what strerror says, byte for byte, as the lines did before the catalogue had these words.
    @Test func theSystemsWordsInEnglishAreStrerrors() {
        for code in SystemError.names.keys.sorted() {
            #expect(SystemError(code).reason(in: .english) == String(cString: strerror(code)).lowercased())
        }
    }

    @Test func aValueWithBracesIsPutInAsItIs() {
        #expect(Catalogue.english.text("error.labels.count-mismatch", ["path": "{classes}.txt", "labels": "3", "classes": "38"])
            == "labels {classes}.txt has 3 names but the model outputs 38 classes")
    }
}
