import PlantLeafKit
import PlantLeafTestSupport
import Testing

/// The runtime library and the default model are both looked for around the executable, by one
/// walk up its folders: beside it, in the install prefix, then in up to three folders above.
@Suite struct ExecutableLocationTests {
    @Test func libraryCandidatesForAnInstalledExecutable() {
        #expect(LiteRtLibrary.candidatePaths(environment: [:], executablePath: "/usr/local/bin/plantleaf") == [
            "/usr/local/bin/libLiteRt.so",
            "/usr/local/lib/plantleaf/libLiteRt.so",
            "/usr/local/.runtime/lib/libLiteRt.so",
            "/usr/.runtime/lib/libLiteRt.so",
            "/.runtime/lib/libLiteRt.so",
        ])
    }

    @Test func theWalkStopsAtTheRootWithoutDoubledSlashes() {
        #expect(LiteRtLibrary.candidatePaths(environment: [:], executablePath: "/plantleaf") == [
            "/libLiteRt.so", "/lib/plantleaf/libLiteRt.so",
        ])
        #expect(LiteRtLibrary.candidatePaths(environment: [:], executablePath: "/bin/plantleaf") == [
            "/bin/libLiteRt.so", "/lib/plantleaf/libLiteRt.so", "/.runtime/lib/libLiteRt.so",
        ])
    }

    @Test func theVariableAloneIsSearchedWhenSet() {
        let environment = [LiteRtLibrary.pathVariable: "/opt/litert/libLiteRt.so"]
        #expect(LiteRtLibrary.candidatePaths(environment: environment, executablePath: "/usr/bin/plantleaf") == ["/opt/litert/libLiteRt.so"])
    }

    /// From this checkout's own build folder the walk reaches the checkout, whose model and
    /// labels exist; with nothing found the installed paths are named.
    @Test func defaultModelComesFromTheCheckoutTheExecutableWasBuiltIn() {
        for build in ["/.build/debug/plantleaf", "/.build/x86_64-unknown-linux-gnu/release/plantleaf"] {
            let found = ProjectPaths.defaultModelAndLabels(executablePath: TestPaths.root + build)
            #expect(found.modelPath == TestPaths.defaultModel)
            #expect(found.labelsPath == TestPaths.labels)
        }
        #expect(ProjectPaths.defaultSampleFolder(executablePath: TestPaths.root + "/.build/debug/plantleaf") == TestPaths.plantVillage)
        let nowhere = ProjectPaths.defaultModelAndLabels(executablePath: "/nonexistent/bin/plantleaf")
        #expect(nowhere.modelPath == "/nonexistent/share/plantleaf/plantvillage_int8.tflite")
        #expect(nowhere.labelsPath == "/nonexistent/share/plantleaf/labels.txt")
    }
}
