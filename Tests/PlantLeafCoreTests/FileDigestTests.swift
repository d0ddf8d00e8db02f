import PlantLeafCore
import PlantLeafSupport
import PlantLeafTestSupport
import Testing

/// A file's digest, as bench records and the weight cache keys it, checked against coreutils' sha256sum.
@Suite struct FileDigestTests {
    @Test func fileDigestMatchesSha256sum() throws {
        let checked = try runCommand("/usr/bin/sha256sum", [TestPaths.defaultModel])
        #expect(checked.status == 0)
        let expected = String(checked.stdout.prefix(64))
        #expect(SHA256.hex(ofFile: TestPaths.defaultModel) == expected)
        #expect(SHA256.hex(ofFile: TestPaths.root + "/no-such-file") == nil)
    }
}
