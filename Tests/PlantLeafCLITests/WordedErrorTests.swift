import Foundation
import Glibc
@testable import PlantLeafCommandLine
import PlantLeafCore
import Testing

/// The errors classify and camera print, with their remedies, come from the catalogue: every
/// case reads whole in every language, its values (paths, numbers, bytes) as given.
@Suite struct WordedErrorTests {
    /// Every case of every error with catalogue words, and the values its line must show.
    static let examples: [(error: any WordedError, values: [String])] = [
        (ImageError.empty, ["0"]),
        (ImageError.unknownFormat(firstBytes: "6e 6f 74 20"), ["6e 6f 74 20"]),
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
        (LeafReferenceError.tooFewPhotos(count: 3, minimum: 8), ["3", "8"]),
        (ThreadStartError(code: EAGAIN), []),
    ] + (RuntimeError.statusNames.keys.sorted() + [99]).map { status in
        (RuntimeError.callFailed(function: "LiteRtCreateModel", status: status, context: "m.tflite"), ["LiteRtCreateModel", "m.tflite", String(status)])
    } + fileProblems.map { (ClassifyError.unreadable(path: "/photos/d.jpg", reason: $0.problem), ["/photos/d.jpg"] + $0.values) }

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
            for line in [englishLine, arabicLine] {
                #expect(line.range(of: #"\{[a-z-]+\}"#, options: .regularExpression) == nil, "unfilled: \(line)")
                #expect(values.filter { !line.contains($0) } == [], "values missing from: \(line)")
            }
            #expect(arabicLine != englishLine)
            // Once its values and technical tokens are taken out, no English word is left.
            var words = values.sorted { $0.count > $1.count }.reduce(arabicLine) { $0.replacing($1, with: "") }
            words = words.replacing(#/`[^`]*`|--[a-z-]+|PLANTLEAF_[A-Z_]+/#, with: "")
            let english = words.matches(of: #/[A-Za-z][A-Za-z0-9.\-]{2,}/#).map { String($0.output) }.filter { !Self.technicalWords.contains($0) }
            #expect(english == [], "English in: \(arabicLine)")
        }
    }

    /// Names of formats, programs and systems, which read the same in any language.
    static let technicalWords: Set<String> = ["PNG", "JPEG", "UTF-8", "libLiteRt.so", "LiteRT", "TensorFlow", "Lite", "PlantLeaf", "plantleaf", "install.sh",
                                              "aarch64", "glibc", "Raspberry", "Bookworm", "ai-edge-litert", "ulimit", "flatbuffer", "FIFO"]

    /// Today's English words, kept byte for byte (the end-to-end tests pin more of them).
    @Test func englishIsTheTextItWas() {
        #expect(Remedy.line(ClassifyError.undecodable(path: "t.jpg", .unknownFormat(firstBytes: "74 68")), in: .english)
            == "t.jpg: not a PNG or JPEG image (starts with 74 68)")
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
        let used = Set(printed.matches(of: #/⟨([A-Za-z.\-]+)⟩/#).map { String($0.output.1) })
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
