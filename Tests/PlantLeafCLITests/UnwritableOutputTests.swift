import PlantLeafTestSupport
import Testing

/// Results that cannot be written are an error; a reader that stops reading ends the run quietly.
@Suite struct UnwritableOutputTests {
    static let leaf = TestPaths.appleScabLeaf
    var leaf: String { Self.leaf }

    @Test func fullDiskIsAnErrorNotASilentSuccess() throws {
        for format in ["text", "json", "csv"] {
            let result = try runPlantLeafInShell("exec \"$0\" \"$@\" >/dev/full", ["classify", "--format", format, Self.leaf, Self.leaf], timeLimit: 60)
            #expect(result.status == 2, "\(format)")
            #expect(result.stderrLines == ["plantleaf classify: cannot write the results to standard output: no space left on device"])
        }
        let bench = try runPlantLeafInShell("exec \"$0\" \"$@\" >/dev/full", ["bench", "--synthetic", "--runs", "1", "--warmup", "0"], timeLimit: 60)
        #expect(bench.status == 2)
        #expect(bench.stderrLines.last == "plantleaf bench: cannot write the results to standard output: no space left on device")
    }

    @Test func closedStdoutIsRefusedBeforeAnyWork() throws {
        for arguments in [["classify", Self.leaf], ["--version"], ["bench", "compare", "a.json", "b.json"]] {
            let result = try runPlantLeafInShell("exec \"$0\" \"$@\" >&-", arguments, timeLimit: 60)
            #expect(result.status == 2, "\(arguments)")
            let command = arguments[0] == "--version" ? "" : " " + arguments[0]
            #expect(result.stderrLines == ["plantleaf\(command): cannot write the results to standard output: standard output is closed"])
        }
    }

    /// `| head -1`: no SIGPIPE death (141), no error line; the status is what the inputs handled
    /// before the reader left earned.
    @Test func readerClosingThePipeEndsTheRunQuietly() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        TestImages.write(Array("not a photo".utf8), to: folder + "/bad.jpg")
        let inputs = Array(repeating: Self.leaf, count: 30)
        let script = "\"$0\" \"$@\" | head -1; echo \"status ${PIPESTATUS[0]}\" >&2"
        let quiet = try runPlantLeafInShell(script, ["classify", "--jobs", "2"] + inputs, timeLimit: 60)
        #expect(quiet.stdoutLines == [leaf])
        #expect(quiet.stderrLines == ["status 0"])
        let afterFailure = try runPlantLeafInShell(script, ["classify", "--format", "json", folder + "/bad.jpg"] + inputs, timeLimit: 60)
        #expect(afterFailure.stdoutLines == ["{\"schema\": 2, \"path\": \"\(folder)/bad.jpg\", \"error\": \"not a JPEG or PNG photo: this file is text\"}"])
        #expect(afterFailure.stderrLines == ["plantleaf classify: \(folder)/bad.jpg: not a JPEG or PNG photo: this file is text", "status 1"])
    }

    /// A camera run whose reader has gone ends at its next result, with the status of a run that
    /// was stopped, as classify's does; an endless stream would otherwise be classified forever.
    @Test func cameraEndsWhenTheReaderCloses() throws {
        let script = "while :; do cat '\(Self.leaf)' || exit; done | \"$0\" \"$@\" | head -1 >/dev/null; echo \"status ${PIPESTATUS[1]}\" >&2"
        let result = try runPlantLeafInShell(script, ["camera", "--input", "-", "--format", "json"], timeLimit: 60)
        #expect(result.stderrLines.last == "status 0", "\(result.stderr)")
        #expect(result.stderrLines.contains { $0.hasPrefix("plantleaf camera: ") && $0.contains(" classified") }, "\(result.stderr)")
    }
}
