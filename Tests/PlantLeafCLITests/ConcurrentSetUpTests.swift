import PlantLeafTestSupport
import Testing

/// Workers set up one after another before any runs: with many jobs and bad files in the batch,
/// every error line and the summary are there every time.
@Suite struct ConcurrentSetUpTests {
    @Test func manyJobsLoseNoLineInFiftyRuns() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        TestImages.write(Array("not a photo".utf8), to: folder + "/text.jpg")
        TestImages.write([], to: folder + "/empty.png")
        let good = Array(TestPaths.plantVillageImages().prefix(3))
        var inputs: [String] = []
        for image in good { inputs += [folder + "/text.jpg", image, folder + "/empty.png", folder + "/missing.jpg"] }
        let expectedErrors = good.flatMap { _ in
            ["plantleaf classify: \(folder)/text.jpg: not a JPEG or PNG photo: this file is text",
             "plantleaf classify: \(folder)/empty.png: empty file (0 bytes)",
             "plantleaf classify: \(folder)/missing.jpg: no such file or directory"]
        } + ["plantleaf classify: 9 of 12 inputs failed"]
        for run in 1...50 {
            let result = try runPlantLeaf(["classify", "--jobs", "8", "--format", "json"] + inputs, timeLimit: 60)
            #expect(result.status == 1, "run \(run): \(result.stderr)")
            #expect(result.stderrLines == expectedErrors, "run \(run)")
            let paths = result.stdoutLines.compactMap { jsonObject($0)?["path"] as? String }
            #expect(paths == inputs, "run \(run)")
            if result.stderrLines != expectedErrors || paths != inputs { break }
        }
    }
}
