@testable import PlantLeafServe
import PlantLeafTestSupport
import Synchronization
import Testing

/// The HTTP library's own lines on their way to serve's log, on a clock set by hand: kept until
/// the server has started, less those that only repeat a refusal's or a drop's line, throttled.
@Suite struct LibraryLogTests {
    static let closing = "Application reported internal error, closing connection."
    static let dropClosing = "Connection socket is closed when reading request due to the error: ECONNRESET"

    /// What the server's log got.
    final class Written: Sendable {
        let lines = Mutex<[String]>([])
    }

    let clock = ManualClock()
    let written = Written()

    func started(_ log: LibraryLog) {
        let written = written
        log.started { line in written.lines.withLock { $0.append(line) } }
    }

    var lines: [String] { written.lines.withLock { $0 } }

    @Test func linesBeforeTheStartAreKeptForTheErrorThenWritten() {
        let log = LibraryLog(clock: clock)
        log.add("Failed to bind to port 80: Permission denied")
        #expect(log.startupLines == ["Failed to bind to port 80: Permission denied"])
        #expect(lines.isEmpty)
        started(log)
        log.add("Error processing request")
        #expect(lines == ["Failed to bind to port 80: Permission denied", "Error processing request"])
        #expect(log.startupLines.isEmpty)
    }

    @Test func aRefusalsClosingIsLeftOutOnce() {
        let log = LibraryLog(clock: clock)
        started(log)
        log.expectRefusalClosing()
        log.add(Self.closing)
        #expect(lines.isEmpty, "the refusal has its own line")
        log.add(Self.closing)
        #expect(lines == [Self.closing], "one the server did not expect is written")
    }

    /// A drop's report is expected for 5 s: a connection that never sent a byte ends without
    /// one, and its expectation must not hide a later client's.
    @Test func aDropsReportIsLeftOutForFiveSecondsThenNoLonger() {
        let log = LibraryLog(clock: clock)
        started(log)
        log.expectDropClosing()
        clock.advance(seconds: 5)
        log.add(Self.dropClosing)
        #expect(lines.isEmpty)
        log.expectDropClosing()
        clock.advance(seconds: 5.25)
        log.add(Self.dropClosing)
        #expect(lines == [Self.dropClosing], "the expectation lapsed")
    }

    @Test func aRepeatedLineIsThrottled() {
        let log = LibraryLog(clock: clock)
        started(log)
        for _ in 0..<12 { log.add("Error accepting connection: Too many open files") }
        #expect(lines.count == 10)
        clock.advance(seconds: 10)
        log.add("Error accepting connection: Too many open files")
        #expect(lines.last == "Error accepting connection: Too many open files (2 more like it left out since the last one shown)")
    }
}
