import Glibc
import PlantLeafCore
import PlantLeafCamera
import PlantLeafTestSupport
import Testing

/// What is not a regular file is refused by its type, at once, wherever a file is read; `-` is
/// standard input.
@Suite struct SpecialFileTests {
    static let leaf = TestPaths.appleScabLeaf

    static func fifo(in folder: String, named name: String) throws -> String {
        let path = folder + "/" + name
        try #require(mkfifo(path, 0o644) == 0)
        return path
    }

    @Test func fifosDevicesAndProcFilesAreRefusedWithoutHanging() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let fifo = try Self.fifo(in: folder, named: "waiting.jpg")
        TestImages.write(try FileReader.readAll(path: Self.leaf), to: folder + "/leaf.jpg")
        let result = try runPlantLeaf(["classify", "--top-k", "1", folder, fifo, "/dev/zero", "/dev/null", "/proc/self/status", Self.leaf], timeLimit: 60)
        #expect(result.status == 1)
        let leafLines = ["  Diagnosis: the top class is the answer", "   99.6%  Apple — Apple scab"]
        #expect(result.stdoutLines == [folder + "/leaf.jpg"] + leafLines + [Self.leaf] + leafLines)
        #expect(result.stderrLines == [
            "plantleaf classify: \(fifo): is a FIFO (named pipe), not a regular file",
            "plantleaf classify: \(fifo): is a FIFO (named pipe), not a regular file",
            "plantleaf classify: /dev/zero: is a character device, not a regular file",
            "plantleaf classify: /dev/null: is a character device, not a regular file",
            // Read to its end although stat says 0 bytes: its text is no image.
            "plantleaf classify: /proc/self/status: not a JPEG or PNG photo: this file is text",
            "plantleaf classify: 5 of 7 inputs failed",
        ])
    }

    @Test func fifoAsLabelsBenchImageOrReportIsRefused() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let fifo = try Self.fifo(in: folder, named: "pipe")
        let cases: [(arguments: [String], line: String)] = [
            (["classify", "--labels", fifo, Self.leaf],
             "plantleaf classify: cannot read labels \(fifo): is a FIFO (named pipe), not a regular file (run `make setup`, or pass --labels)"),
            (["bench", "--image", fifo, "--runs", "1"],
             "plantleaf bench: cannot read benchmark image \(fifo): is a FIFO (named pipe), not a regular file (pass --image FILE, or --synthetic to need no file)"),
            (["bench", "compare", fifo, "/dev/zero"], "plantleaf bench compare: cannot read benchmark report \(fifo): is a FIFO (named pipe), not a regular file"),
            (["classify", "--model", fifo, Self.leaf], "plantleaf classify: cannot read model \(fifo): is a FIFO (named pipe), not a regular file"),
        ]
        for (arguments, line) in cases {
            let result = try runPlantLeaf(arguments, timeLimit: 60)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderrLines.filter { !$0.contains("warning:") } == [line], "\(arguments)")
        }
    }

    /// Opening a FIFO for writing waits for a reader; after that only SIGKILL ended plantleaf.
    @Test func fifoAsOutputIsRefusedWithoutHanging() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let fifo = try Self.fifo(in: folder, named: "out")
        let cases: [(arguments: [String], line: String)] = [
            (["bench", "--synthetic", "--runs", "1", "--warmup", "0", "--json", fifo],
             "plantleaf bench: cannot write --json file \(fifo): is a FIFO (named pipe), not a regular file (see plantleaf bench --help)"),
            (["bench", "--synthetic", "--runs", "1", "--warmup", "0", "--csv", "/dev/null"],
             "plantleaf bench: cannot write --csv file /dev/null: is a character device, not a regular file (see plantleaf bench --help)"),
            (["camera", "--input", Self.leaf, "--log", fifo], "plantleaf camera: --log \(fifo): is a FIFO (named pipe), not a regular file"),
        ]
        for (arguments, line) in cases {
            let result = try runPlantLeaf(arguments, timeLimit: 20)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderrLines == [line], "\(arguments)")
        }
    }

    @Test func dashIsStandardInput() throws {
        let piped = try runPlantLeafInShell("cat \"$1\" | \"$0\" classify --top-k 1 -", [Self.leaf], timeLimit: 60)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdoutLines == ["-", "  Diagnosis: the top class is the answer", "   99.6%  Apple — Apple scab"])
        let empty = try runPlantLeafInShell("exec \"$0\" classify - </dev/null", [], timeLimit: 60)
        #expect(empty.status == 1)
        #expect(empty.stderrLines == ["plantleaf classify: -: empty file (0 bytes)", "plantleaf classify: 1 of 1 inputs failed"])
        let twice = try runPlantLeaf(["classify", "-", "-"])
        #expect(twice.status == 2)
        #expect(twice.stderrLines == ["plantleaf classify: - (standard input) can be given once (see plantleaf classify --help)"])
        // Both would read standard input: the labels first, leaving the image nothing.
        let labelsToo = try runPlantLeaf(["classify", "--labels", "-", "-"])
        #expect(labelsToo.status == 2)
        #expect(labelsToo.stderrLines == ["plantleaf classify: --labels - and the image - would both read standard input: "
            + "give one of them a file (see plantleaf classify --help)"])
    }
}
