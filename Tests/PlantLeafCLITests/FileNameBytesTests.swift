import Glibc
import PlantLeafCore
import PlantLeafCamera
import PlantLeafTestSupport
import Testing

/// File names are bytes: each file is opened by the name its folder listing or the command line
/// gave, and shown so that no two names look alike and none can forge a line or reach the
/// terminal as a command.
@Suite struct FileNameBytesTests {
    static let leaf = TestPaths.appleScabLeaf

    static func write(_ bytes: [UInt8], toName name: [UInt8], in folder: String) {
        let path = Array(folder.utf8) + [UInt8(ascii: "/")] + name + [0]
        let descriptor = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) } }
        precondition(descriptor >= 0, "cannot create \(name)")
        _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    @Test func namesWithEveryByteAreEachOpenedAndShownApart() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let text = Array("not a photo".utf8)
        for byte in UInt8(1)...UInt8(255) where byte != UInt8(ascii: "/") {
            Self.write(text, toName: Array("n".utf8) + [byte] + Array(".jpg".utf8), in: folder)
        }
        let result = try runPlantLeaf(["classify", "--format", "json", folder], timeLimit: 120)
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
        #expect(errorLines.contains("plantleaf classify: \(folder)/n\\x0a.jpg: not a JPEG or PNG photo: this file is text"))
        #expect(errorLines.contains("plantleaf classify: \(folder)/n\\x1b.jpg: not a JPEG or PNG photo: this file is text"))
        #expect(errorLines.contains("plantleaf classify: \(folder)/n\\xff.jpg: not a JPEG or PNG photo: this file is text"))
        #expect(errorLines.contains("plantleaf classify: \(folder)/n\\\\.jpg: not a JPEG or PNG photo: this file is text"))
    }

    /// A name that is not UTF-8 next to one that is its U+FFFD look-alike: each file's own
    /// result under its own name, in a folder and given directly.
    @Test func lookAlikeNamesKeepTheirOwnResults() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        Self.write(try FileReader.readAll(path: Self.leaf), toName: Array("a".utf8) + [0xFF] + Array(".jpg".utf8), in: folder)
        Self.write(Array("not a photo".utf8), toName: Array("a\u{FFFD}.jpg".utf8), in: folder)
        Self.write(Array("not a photo".utf8), toName: Array("a\\xff.jpg".utf8), in: folder)
        let expectedOut = ["\(folder)/a\\xff.jpg", "  Diagnosis: the top class is the answer", "   99.6%  Apple — Apple scab"]
        let expectedErrors = ["plantleaf classify: \(folder)/a\\\\xff.jpg: not a JPEG or PNG photo: this file is text",
                              "plantleaf classify: \(folder)/a\u{FFFD}.jpg: not a JPEG or PNG photo: this file is text",
                              "plantleaf classify: 2 of 3 inputs failed"]
        let listed = try runPlantLeaf(["classify", "--top-k", "1", folder], timeLimit: 60)
        #expect(listed.status == 1)
        #expect(listed.stdoutLines == expectedOut)
        #expect(listed.stderrLines == expectedErrors)
        let given = try runPlantLeafInShell("exec \"$0\" classify --top-k 1 \"$1\"/a$'\\xff'.jpg \"$1\"/'a\\xff.jpg' \"$1\"/a$'\\xef\\xbf\\xbd'.jpg",
                                            [folder], timeLimit: 60)
        #expect(given.status == 1)
        #expect(given.stdoutLines == expectedOut)
        #expect(given.stderrLines == expectedErrors)
    }

    /// Option values are text: one that is not UTF-8 (a log name, an MQTT topic, a model path)
    /// is refused whole, before anything is written, rather than turned into another name.
    @Test func optionValuesThatAreNotUTF8AreRefused() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let script = """
            cd "$1"
            "$0" camera --input /dev/null --log log$'\\xff'.jsonl; echo "status $?"
            "$0" camera --input /dev/null --mqtt mqtt://127.0.0.1/green$'\\xff'house; echo "status $?"
            "$0" classify --model=m$'\\xff'.tflite leaf.jpg; echo "status $?"
            "$0" bench compare a$'\\xff'.json b.json; echo "status $?"
            ls
            """
        let result = try runPlantLeafInShell(script, [folder], timeLimit: 60)
        #expect(result.stdoutLines == ["status 2", "status 2", "status 2", "status 2"], "nothing may be created: \(result.stdout)")
        #expect(result.stderrLines == [
            #"plantleaf camera: --log value 'log\xff.jsonl' is not UTF-8: only classify's image paths may hold other bytes (see plantleaf camera --help)"#,
            #"plantleaf camera: --mqtt value 'mqtt://127.0.0.1/green\xffhouse' is not UTF-8: only classify's image paths may hold other bytes (see plantleaf camera --help)"#,
            #"plantleaf classify: --model value 'm\xff.tflite' is not UTF-8: only classify's image paths may hold other bytes (see plantleaf classify --help)"#,
            #"plantleaf bench compare: argument 'a\xff.json' is not UTF-8: only classify's image paths may hold other bytes (see plantleaf bench --help)"#,
        ])
    }
}
