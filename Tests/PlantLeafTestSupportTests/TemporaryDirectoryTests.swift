import Foundation
import PlantLeafTestSupport
import Testing

/// The temporary folders tests make are removed whole, whatever the test left in them.
@Suite struct TemporaryDirectoryTests {
    @Test func lockedAndDeeperThanPathMaxFoldersAreRemoved() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }  // should the test fail before its own removal
        try FileManager.default.createDirectory(atPath: folder + "/locked/inner", withIntermediateDirectories: true)
        TestImages.write(Array("text".utf8), to: folder + "/locked/inner/file")
        #expect(chmod(folder + "/locked/inner", 0) == 0 && chmod(folder + "/locked", 0) == 0)
        // 25 levels of 200 bytes, made from inside, the only way past PATH_MAX.
        let made = try runCommand("/bin/bash", ["-c", #"cd "$0" && for level in $(seq 25); do mkdir "$1" && cd "$1" || exit 1; done"#,
                                                folder, String(repeating: "d", count: 200)])
        try #require(made.status == 0, "\(made.stderr)")
        TestPaths.removeTemporaryDirectory(folder)
        #expect(!FileManager.default.fileExists(atPath: folder))
    }
}
