import Foundation
import PlantLeafTestSupport
import Testing

/// Odd and hostile use of the command line ends in a usage error or a reported failure, never a
/// crash, a hang, or results lost or put under the wrong name.
@Suite struct NumericRangeTests {
    static let leaf = TestPaths.appleScabLeaf
    var leaf: String { Self.leaf }

    /// Every numeric option, just outside its range (and far outside, past Int), is one usage
    /// line and exit 2 before anything runs.
    @Test func numbersOutsideTheirRangesAreUsageErrors() throws {
        let cases: [(arguments: [String], line: String)] = [
            (["classify", "--top-k", "9223372036854775806", leaf], "plantleaf classify: --top-k must be from 1 to 1000, got 9223372036854775806"),
            (["classify", "--top-k", "100000000000000000000", leaf], "plantleaf classify: --top-k must be from 1 to 1000, got 100000000000000000000"),
            (["classify", "--top-k", "0", leaf], "plantleaf classify: --top-k must be from 1 to 1000, got 0"),
            (["classify", "--threads", "2147483648", leaf], "plantleaf classify: --threads must be from 1 to 64, got 2147483648"),
            (["classify", "--threads", "65", leaf], "plantleaf classify: --threads must be from 1 to 64, got 65"),
            (["classify", "--jobs", "-1", leaf], "plantleaf classify: --jobs must be from 1 to 64, got -1"),
            (["classify", "--jobs", "1.5", leaf], "plantleaf classify: --jobs must be a whole number, got '1.5'"),
            (["classify", "--mean", "1e308", leaf], "plantleaf classify: --mean must be from -1000 to 1000, got 1e308"),
            (["classify", "--mean", "nan", leaf], "plantleaf classify: --mean must be a number, got 'nan'"),
            (["classify", "--std", "0", leaf], "plantleaf classify: --std must be above 0 and at most 1000, got 0"),
            (["classify", "--std", "-inf", leaf], "plantleaf classify: --std must be above 0 and at most 1000, got -inf"),
            (["camera", "--top-k", "1001"], "plantleaf camera: --top-k must be from 1 to 1000, got 1001"),
            (["camera", "--threads", "33000"], "plantleaf camera: --threads must be from 1 to 64, got 33000"),
            (["camera", "--frames", "0"], "plantleaf camera: --frames must be from 1 to 1000000000, got 0"),
            (["camera", "--iterations", "1000001"], "plantleaf camera: --iterations must be from 1 to 1000000, got 1000001"),
            (["camera", "--fps", "0"], "plantleaf camera: --fps must be above 0 and at most 1000, got 0"),
            (["camera", "--duration", "1e10"], "plantleaf camera: --duration must be above 0 and at most 31536000, got 1e10"),
            (["camera", "--timeout", "3601"], "plantleaf camera: --timeout must be from 0.1 to 3600, got 3601"),
            // Accepted, it ended the run with "no frame within 0 s".
            (["camera", "--timeout", "1e-300"], "plantleaf camera: --timeout must be from 0.1 to 3600, got 1e-300"),
            (["camera", "--bench-frames", leaf, "--size", "1x1"],
             "plantleaf camera: --size must be an even width from 16 to 7680 and a height from 16 to 4320, got '1x1'"),
            (["camera", "--size", "641x480"],
             "plantleaf camera: --size must be an even width from 16 to 7680 and a height from 16 to 4320, got '641x480'"),
            (["bench", "--runs", "0"], "plantleaf bench: --runs must be from 1 to 1000000, got 0"),
            (["bench", "--warmup", "-1"], "plantleaf bench: --warmup must be from 0 to 1000000, got -1"),
            (["bench", "--threads", "1,65"], "plantleaf bench: --threads values must be from 1 to 64, got 65"),
            (["bench", "--min-seconds", "86401"], "plantleaf bench: --min-seconds must be from 0 to 86400, got 86401"),
        ]
        for (arguments, line) in cases {
            let command = arguments[0]
            let result = try runPlantLeaf(arguments, timeLimit: 30)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments)")
            #expect(result.stderrLines == [line + " (see plantleaf \(command) --help)"], "\(arguments)")
        }
    }

    /// A thread limit that leaves too few threads for --threads is a clear set-up error, where
    /// the thread pool used to come up short, score garbage and crash at exit.
    static let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups"]

    /// RLIMIT_NPROC binds only an unprivileged user: becoming one (setpriv) needs root, and the
    /// checkout must be readable by that user.
    static func canRunAsNobody() throws -> Bool {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return false }
        return try runCommand("/usr/bin/setpriv", asNobody + ["/usr/bin/test", "-x", TestPaths.binary, "-a", "-r", TestPaths.defaultModel]).status == 0
    }

    @Test(.enabled(if: try Self.canRunAsNobody(),
                   "needs root and /usr/bin/setpriv to run plantleaf as nobody, and the build and model readable by nobody"))
    func threadLimitBelowTheThreadsAskedForIsASetupError() throws {
        let asNobody = Self.asNobody
        let result = try runCommand("/usr/bin/setpriv",
                                    asNobody + ["/bin/bash", "-c",
                                     "ulimit -u 40 && exec \"$0\" \"$@\"", TestPaths.binary, "classify", "--threads", "64", Self.leaf],
                                    timeLimit: 60)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines == ["plantleaf classify: cannot start the 63 helper threads of a 64-thread interpreter: "
            + "resource temporarily unavailable (the process or user thread limit, ulimit -u, is reached)"])
    }
}
