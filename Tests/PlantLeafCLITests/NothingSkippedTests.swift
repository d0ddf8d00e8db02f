import Foundation
import PlantLeafCore
import PlantLeafCamera
import PlantLeafTestSupport
import Testing

/// Whatever in a folder could hold images but cannot be searched or read is one error line and
/// a failed input; the rest is classified.
@Suite struct NothingSkippedTests {
    static let leaf = TestPaths.appleScabLeaf

    @Test func unreadableFoldersAndBrokenLinksAreEachOneFailure() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        TestImages.write(try FileReader.readAll(path: Self.leaf), to: folder + "/leaf.jpg")
        try FileManager.default.createDirectory(atPath: folder + "/locked", withIntermediateDirectories: false)
        TestImages.write(try FileReader.readAll(path: Self.leaf), to: folder + "/locked/hidden.jpg")
        chmod(folder + "/locked", 0)
        try FileManager.default.createSymbolicLink(atPath: folder + "/dangling.jpg", withDestinationPath: "gone.jpg")
        try FileManager.default.createSymbolicLink(atPath: folder + "/loop", withDestinationPath: "loop")
        try FileManager.default.createSymbolicLink(atPath: folder + "/parent", withDestinationPath: ".")
        let result = try runPlantLeafUnprivileged(["classify", "--top-k", "1", folder, folder + "/locked"])
        #expect(result.status == 1)
        #expect(result.stdoutLines == [folder + "/leaf.jpg", "  Diagnosis: the top class is the answer", "   99.6%  Apple — Apple scab"])
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
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let component = String(repeating: "d", count: 200)
        // Made one level at a time from inside, the only way past PATH_MAX.
        let made = try runCommand("/bin/bash", ["-c", "cd \"$0\" && for level in $(seq 25); do mkdir \"$1\" && cd \"$1\" || exit 1; done; cp \"$2\" leaf.jpg",
                                                folder, component, Self.leaf])
        try #require(made.status == 0, "\(made.stderr)")
        TestImages.write(try FileReader.readAll(path: Self.leaf), to: folder + "/leaf.jpg")
        var tooLong = folder
        while tooLong.utf8.count < Int(PATH_MAX) { tooLong += "/" + component }
        let result = try runPlantLeaf(["classify", "--top-k", "1", folder], timeLimit: 60)
        #expect(result.status == 1)
        #expect(result.stdoutLines == [folder + "/leaf.jpg", "  Diagnosis: the top class is the answer", "   99.6%  Apple — Apple scab"])
        #expect(result.stderrLines == ["plantleaf classify: \(tooLong): path longer than the system allows (PATH_MAX 4096 bytes)",
                                       "plantleaf classify: 1 of 2 inputs failed"])
    }
}
