import Foundation
import Glibc
import PlantLeafCommandLine
import PlantLeafCore
import PlantLeafTestSupport
import Testing

/// The log is reopened by path after SIGHUP; whatever was put there meanwhile, the reopen never waits.
@Suite(.serialized) struct AppendLogTests {
    /// Raises SIGHUP on this thread, which the test runner may have blocked it on.
    static func hangUp() {
        var hangup = sigset_t()
        sigemptyset(&hangup)
        sigaddset(&hangup, SIGHUP)
        var previous = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &hangup, &previous)
        raise(SIGHUP)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }

    @Test func logRotatedIntoAFifoIsRefusedWithoutWaiting() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let path = folder + "/camera.jsonl"
        let log = try AppendLog(path: path)
        try log.append("first")
        try #require(rename(path, path + ".1") == 0)
        try #require(mkfifo(path, 0o644) == 0)
        Self.hangUp()

        // Should the open wait for a reader after all, one comes after 5 s and stays until the
        // append returns, so the test ends (and fails: the append waited).
        let appended = DispatchSemaphore(value: 0), readerCame = DispatchSemaphore(value: 0)
        let reader = Thread {
            guard appended.wait(timeout: .now() + 5) == .timedOut else { return }
            readerCame.signal()
            let descriptor = open(path, O_RDONLY | O_NONBLOCK)
            appended.wait()
            close(descriptor)
        }
        reader.start()
        var reason: String?
        do {
            try log.append("second")
        } catch {
            reason = error.reason
        }
        appended.signal()
        #expect(readerCame.wait(timeout: .now()) == .timedOut, "the append waited for a reader of the FIFO")
        #expect(reason == "is a FIFO (named pipe), not a regular file")
        #expect(try FileReader.readAll(path: path + ".1") == Array("first\n".utf8))
    }
}
