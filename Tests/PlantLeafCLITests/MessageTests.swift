import Foundation
import PlantLeafTestSupport
import Testing

/// Messages say what happened, in the user's terms, at the right time.
@Suite struct MessageTests {
    static let leaf = TestPaths.appleScabLeaf

    static func report(threads: String = "1", median: String = "2.5") -> String {
        FuzzTargets.benchReportSeed(threads: threads, median: median)
    }

    @Test func compareNamesFieldsAsTheFileSpellsThemAndRefusesImpossibleTimes() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let files: [(name: String, text: String, reason: String)] = [
            ("fraction.json", Self.report(threads: "1.5"),
             "field results[0].threads is 1.5, not a whole number"),
            ("huge.json", Self.report(median: "1e308"),
             "field results[0].stages.invoke.median_ms is 1e+308, not a time from 0.0001 ms (100 ns, the least a timed stage takes) to a day (86400000 ms)"),
            ("zero.json", Self.report(median: "0"),
             "field results[0].stages.invoke.median_ms is 0.0, not a time from 0.0001 ms (100 ns, the least a timed stage takes) to a day (86400000 ms)"),
            ("negative.json", Self.report(median: "-4"),
             "field results[0].stages.invoke.median_ms is -4.0, not a time from 0.0001 ms (100 ns, the least a timed stage takes) to a day (86400000 ms)"),
            ("version-only.json", #"{"schema_version": 3}"#, "missing field plantleaf_version"),
            ("cut.json", #"{"schema_version": 3, "plantleaf"#, "not JSON at byte 32: the text ends inside a value"),
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
        defer { TestPaths.removeTemporaryDirectory(folder) }
        // A million runs would take minutes: the error must come first.
        let same = try runPlantLeaf(["bench", "--synthetic", "--runs", "1000000", "--json", folder + "/r", "--csv", folder + "/r"], timeLimit: 30)
        #expect(same.status == 2)
        #expect(same.stderrLines == ["plantleaf bench: --json and --csv name the same file, \(folder)/r: give each its own (see plantleaf bench --help)"])
        let directory = try runPlantLeaf(["bench", "--synthetic", "--runs", "1000000", "--json", folder], timeLimit: 30)
        #expect(directory.status == 2)
        #expect(directory.stderrLines == ["plantleaf bench: cannot write --json file \(folder): is a directory (see plantleaf bench --help)"])
    }

    @Test func bareLibraryNameIsRefusedInPlantLeafsWords() throws {
        let result = try runPlantLeaf(["classify", Self.leaf], environment: ["PLANTLEAF_LITERT_LIB": "libLiteRt.so"])
        #expect(result.status == 2)
        #expect(result.stderrLines == ["plantleaf classify: libLiteRt.so must be named by a path (with a /, e.g. ./libLiteRt.so), got 'libLiteRt.so' in PLANTLEAF_LITERT_LIB"])
    }

    /// Whether this machine has no /dev/video* node (false when /dev cannot be listed).
    static func hasNoVideoDevices() -> Bool {
        (try? FileManager.default.contentsOfDirectory(atPath: "/dev"))?.contains(where: { $0.hasPrefix("video") }) == false
    }

    @Test(.enabled(if: Self.hasNoVideoDevices(), "this machine has /dev/video* devices, so --list finds cameras"))
    func cameraListWithoutCamerasIsExitTwo() throws {
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
            return try runCommand("/usr/bin/script", ["-qec", command, "/dev/null"], timeLimit: 120).stdout
        }
        #expect(try stderrOnTerminal("xterm").contains("\u{1B}[K[1/20] "))
        #expect(try !stderrOnTerminal("dumb").contains("\u{1B}["))
    }
}
