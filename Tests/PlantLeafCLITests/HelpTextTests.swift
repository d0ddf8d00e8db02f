import Foundation
import PlantLeafTestSupport
import Testing

/// The help texts and usage errors, whole: each case's exit status, stdout and stderr are
/// compared with its file in Expected/ (a transcript: the command line, the exit status, then
/// each stream), so any change to what a user reads shows up as a diff here.
///
/// A change that is meant is recorded deliberately: `PLANTLEAF_RECORD_EXPECTED=1 swift test
/// --filter HelpTextTests` rewrites the files that differ and still fails, so the new texts are
/// read in `git diff` before they are committed.
@Suite(.serialized) struct HelpTextTests {
    /// Each case: the file in Expected/ (without .txt) and plantleaf's arguments.
    static let cases: [(name: String, arguments: [String])] = [
        ("plantleaf-help", ["--help"]),
        ("classify-help", ["classify", "--help"]),
        ("camera-help", ["camera", "--help"]),
        ("bench-help", ["bench", "--help"]),
        ("serve-help", ["serve", "--help"]),
        ("calibrate-help", ["calibrate", "--help"]),
        ("journal-help", ["journal", "--help"]),
        ("teach-help", ["teach", "--help"]),
        ("teach-without-action", ["teach"]),
        ("unknown-command", ["nonsense"]),
        ("unknown-option", ["classify", "--frobnicate", "leaf.jpg"]),
        ("bad-top-k", ["classify", "--top-k", "zero", "leaf.jpg"]),
        ("classify-without-files", ["classify"]),
        ("classify-missing-file", ["classify", "/nonexistent/leaf.jpg"]),
        ("bench-compare-without-files", ["bench", "compare"]),
    ]

    static let expectedFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Expected"

    static var recording: Bool { ProcessInfo.processInfo.environment["PLANTLEAF_RECORD_EXPECTED"] == "1" }

    /// What a run printed, as its file holds it. Paths of this machine that an output may show
    /// (the binary, the package, the home folder) become placeholders; a stream that does not
    /// end with a newline says so.
    static func transcript(of arguments: [String], _ result: CommandResult) -> String {
        func section(_ name: String, _ text: String) -> String {
            let ending = text.isEmpty || text.hasSuffix("\n") ? "" : "\n[no newline at the end of \(name)]\n"
            return "[\(name)]\n" + text + ending
        }
        let text = "$ plantleaf \(arguments.joined(separator: " "))\n[exit status \(result.status)]\n"
            + section("stdout", result.stdout) + section("stderr", result.stderr)
        var placeholders = [(TestPaths.binary, "<plantleaf>"), (TestPaths.root, "<package>")]
        if NSHomeDirectory() != "/" { placeholders.append((NSHomeDirectory(), "<home>")) }
        return placeholders.reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    @Test func outputsAreTheRecordedOnes() throws {
        var recorded = 0
        for (name, arguments) in Self.cases {
            let path = Self.expectedFolder + "/" + name + ".txt"
            let actual = Self.transcript(of: arguments, try runPlantLeaf(arguments))
            let expected = try? String(contentsOfFile: path, encoding: .utf8)
            guard actual != expected else { continue }
            if Self.recording {
                try actual.write(toFile: path, atomically: true, encoding: .utf8)
                recorded += 1
            } else if let expected {
                let diff = unifiedDiff(from: expected, to: actual, oldName: "Expected/\(name).txt", newName: "plantleaf's output")
                Issue.record("""
                    plantleaf \(arguments.joined(separator: " ")): the output differs from Expected/\(name).txt \
                    (if the change is meant, run with PLANTLEAF_RECORD_EXPECTED=1):
                    \(diff)
                    """)
            } else {
                Issue.record("Expected/\(name).txt is missing: run with PLANTLEAF_RECORD_EXPECTED=1 to record it")
            }
        }
        if Self.recording {
            Issue.record("recorded \(recorded) \(recorded == 1 ? "file" : "files"); review with git diff and run again without PLANTLEAF_RECORD_EXPECTED")
        }
    }

    /// A file no case writes would never be compared again: a case renamed or dropped leaves it.
    @Test func everyExpectedFileBelongsToACase() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.expectedFolder)
        let stale = Set(files).subtracting(Self.cases.map { $0.name + ".txt" })
        #expect(stale.isEmpty, "Expected/ holds files of no case (remove them): \(stale.sorted())")
    }

    /// The help texts docs/ quotes are the program's: from a block's "USAGE: plantleaf <command>"
    /// line to the block's end, each line is the line of `plantleaf <command> --help` in its
    /// place (a block may stop early, after the usage lines).
    @Test func helpQuotedInTheDocsIsTheProgramsHelp() throws {
        let folder = TestPaths.root + "/docs"
        var quoted = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: folder).filter({ $0.hasSuffix(".md") }).sorted() {
            let lines = try String(contentsOfFile: folder + "/" + file, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() where line.hasPrefix("USAGE: plantleaf ") {
                let command = String(line.dropFirst("USAGE: plantleaf ".count).prefix { $0 != " " })
                let block = lines[index...].prefix { !$0.hasPrefix("```") }
                let help = try runPlantLeaf([command, "--help"]).stdout.components(separatedBy: "\n")
                let differing = zip(block, help).enumerated().first { $0.element.0 != $0.element.1 }
                if let (offset, (documented, printed)) = differing {
                    Issue.record("docs/\(file):\(index + offset + 1) quotes plantleaf \(command) --help as '\(documented)'; it prints '\(printed)'")
                }
                #expect(block.count <= help.count, "docs/\(file): the help quoted at line \(index + 1) is longer than plantleaf \(command) --help")
                quoted += 1
            }
        }
        #expect(quoted >= 3, "docs/ quotes \(quoted) help texts: fewer than classify's, serve's and teach's")
    }
}
