import Foundation
import PlantLeafTestSupport
import Testing

/// The runner every test starts programs with (PlantLeafTestSupport's runCommand): what the
/// other suites count on when they say a run "does not hang".
@Suite struct CommandTests {
    /// Whether process `pid` is gone: no longer listed, or a zombie waiting to be reaped.
    static func isGone(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        return stat.contains(") Z ")
    }

    @Test func timeLimitKillsTheCommandAndWhatItStarted() throws {
        let script = "sleep 300 & echo $!; sleep 300"
        let started = Date()
        var failure: CommandError?
        do {
            _ = try runCommand("/bin/bash", ["-c", script], timeLimit: 1)
        } catch let error as CommandError {
            failure = error
        }
        #expect(Date().timeIntervalSince(started) < 8, "killed at 1 s, then 10 s of grace: the group kill did not end it")
        guard case .timedOut(let command, let seconds, let stdout, _)? = failure else {
            Issue.record("expected timedOut, got \(String(describing: failure))")
            return
        }
        #expect(command == ["/bin/bash", "-c", script] && seconds == 1)
        #expect(failure?.description.hasPrefix("/bin/bash -c 'sleep 300 & echo $!; sleep 300' did not finish within 1 s: killed with all it started") == true,
                "\(failure?.description ?? "")")
        // The background sleep, in the shell's process group, went with it.
        let background = try #require(Int32(stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(stdout)")
        var waited = 0
        while !Self.isGone(background) && waited < 100 {
            usleep(50_000)
            waited += 1
        }
        #expect(Self.isGone(background), "sleep \(background) outlived the time limit")
    }

    @Test func exitStatusIsTheShells() throws {
        #expect(try runCommand("/bin/sh", ["-c", "exit 3"]).status == 3)
        #expect(try runCommand("/bin/sh", ["-c", "kill -TERM $$"]).status == 128 + SIGTERM)
    }

    @Test func environmentAndFolderReachTheCommand() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let result = try runCommand("/bin/sh", ["-c", #"pwd; echo "$PLANTLEAF_TEST_VALUE" >&2"#],
                                    environment: ["PLANTLEAF_TEST_VALUE": "two words"], currentDirectory: folder)
        #expect(result.status == 0)
        #expect(result.stdout == folder + "\n")
        #expect(result.stderr == "two words\n")
    }

    /// Far more than a pipe holds, on both streams at once: neither stalls the other.
    @Test func bothStreamsAreReadWhileTheCommandRuns() throws {
        let script = "for i in $(seq 2000); do printf '%0999d\\n' $i; printf '%0999d\\n' $i >&2; done"
        let result = try runCommand("/bin/bash", ["-c", script], timeLimit: 60)
        #expect(result.status == 0)
        #expect(result.stdout.utf8.count == 2000 * 1000 && result.stderr.utf8.count == 2000 * 1000)
        #expect(result.stdoutLines.last == String(repeating: "0", count: 995) + "2000")
    }
}
