import PlantLeafCore
import PlantLeafCamera
import PlantLeafCommandLine
import PlantLeafTestSupport
import Testing

/// The runtime library, the default model and the samples are looked for around the executable,
/// by one walk up its folders: beside it, in the install prefix, then up to three folders above.
@Suite struct ExecutableLocationTests {
    @Test func libraryCandidatesForAnInstalledExecutable() {
        #expect(ProjectPaths.liteRtCandidates(environment: [:], executablePath: "/usr/local/bin/plantleaf") == [
            "/usr/local/bin/libLiteRt.so",
            "/usr/local/lib/plantleaf/libLiteRt.so",
            "/usr/local/.runtime/lib/libLiteRt.so",
            "/usr/.runtime/lib/libLiteRt.so",
            "/.runtime/lib/libLiteRt.so",
        ])
    }

    @Test func theWalkStopsAtTheRootWithoutDoubledSlashes() {
        #expect(ProjectPaths.liteRtCandidates(environment: [:], executablePath: "/plantleaf") == [
            "/libLiteRt.so", "/lib/plantleaf/libLiteRt.so",
        ])
        #expect(ProjectPaths.liteRtCandidates(environment: [:], executablePath: "/bin/plantleaf") == [
            "/bin/libLiteRt.so", "/lib/plantleaf/libLiteRt.so", "/.runtime/lib/libLiteRt.so",
        ])
    }

    @Test func theVariableAloneIsSearchedWhenSet() {
        let environment = [ProjectPaths.liteRtVariable: "/opt/litert/libLiteRt.so"]
        #expect(ProjectPaths.liteRtCandidates(environment: environment, executablePath: "/usr/bin/plantleaf") == ["/opt/litert/libLiteRt.so"])
    }

    /// From either build folder layout the walk reaches the checkout the executable was built in,
    /// where `make setup` put the runtime.
    @Test func theWalkFromABuildFolderReachesTheCheckout() {
        for build in ["/.build/debug/plantleaf", "/.build/x86_64-unknown-linux-gnu/release/plantleaf"] {
            let roots = ExecutableLocation.projectRootCandidates(executablePath: TestPaths.root + build)
            #expect(roots.contains(TestPaths.root))
            #expect(ProjectPaths.liteRtCandidates(environment: [:], executablePath: TestPaths.root + build)
                .contains(ExecutableLocation.path(ProjectPaths.liteRtProjectPath, in: TestPaths.root)))
        }
        #expect(ExecutableLocation.installPrefix(executablePath: "/opt/plantleaf/bin/plantleaf") == "/opt/plantleaf")
    }
}
