import Foundation
import Glibc
import PlantLeafCamera
import PlantLeafCore
import PlantLeafSupport
import PlantLeafTestSupport
import Testing

/// A frame source that plays a script on the real clock, so the session's timing rules (`--every`,
/// `--timeout`, `--duration`, the end of a stream, retries) are tested without a camera or a VM.
final class ScriptedFrameSource: FrameSource, @unchecked Sendable {
    enum Step {
        /// A whole frame, `after` seconds after the previous step.
        case frame(after: Double)
        /// Bytes that make no frame (garbage between frames), `after` seconds after the previous step.
        case bytesWithoutFrame(after: Double)
        case damaged(after: Double)
        case end(after: Double)
        /// A whole frame as soon as every frame before it has been read (see `readingMade()`),
        /// however long a classification takes on this machine.
        case frameAfterReading
    }

    let name = "scripted"
    private var steps: [Step]
    private var dueAt = MonotonicClock.nanoseconds()
    private var sequence: UInt32 = 0
    private let frame: [UInt8]
    private let readingsLock = NSLock()
    private var readings: UInt32 = 0
    private var timestamps: [UInt32: UInt64] = [:]

    init(_ steps: [Step], frame: [UInt8]) {
        self.steps = steps
        self.frame = frame
        if let first = steps.first { dueAt += Self.delay(of: first) }
    }

    static func delay(of step: Step) -> UInt64 {
        switch step {
        case .frame(let after), .bytesWithoutFrame(let after), .damaged(let after), .end(let after): return UInt64(after * 1e9)
        case .frameAfterReading: return 0
        }
    }

    /// Called from the session's result handler: one more frame has been read.
    func readingMade() { readingsLock.withLock { readings += 1 } }

    /// When the frame with this sequence number was put in the mailbox, in seconds.
    func captureSeconds(of sequence: UInt32) -> Double? {
        readingsLock.withLock { timestamps[sequence].map { Double($0) / 1e9 } }
    }

    private var everyFrameRead: Bool { readingsLock.withLock { readings >= sequence } }

    /// How often a `.frameAfterReading` step looks whether the previous frame has been read.
    private static let readingCheckNanoseconds: UInt64 = 10_000_000

    func next(until deadline: UInt64, wake: Int32, into mailbox: LatestFrame) throws(CameraError) -> FrameSourceStep {
        // A script that has run out goes silent, as a camera that stopped sending.
        let waitsForReading = if case .frameAfterReading = steps.first { true } else { false }
        let dueOrChecked = waitsForReading ? MonotonicClock.nanoseconds() + Self.readingCheckNanoseconds : dueAt
        let wakeAt = steps.isEmpty ? deadline : min(dueOrChecked, deadline)
        var descriptor = pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
        if poll(&descriptor, 1, MonotonicClock.pollTimeout(until: wakeAt)) > 0 { return .woken }
        guard !steps.isEmpty, MonotonicClock.nanoseconds() >= dueAt else { return .waiting }
        if waitsForReading && !everyFrameRead { return .waiting }
        let step = steps.removeFirst()
        if let following = steps.first { dueAt += Self.delay(of: following) }
        switch step {
        case .frame, .frameAfterReading:
            sequence += 1
            let timestamp = MonotonicClock.nanoseconds()
            readingsLock.withLock { timestamps[sequence] = timestamp }
            frame.withUnsafeBytes { mailbox.put($0, sequence: sequence, timestamp: timestamp) }
            return .delivered
        case .bytesWithoutFrame:
            return .waiting
        case .damaged:
            mailbox.reject(.damaged(.noMarker(atByte: 2)), source: name)
            return .waiting
        case .end:
            return .ended
        }
    }
}

@Suite(.serialized) struct CameraSchedulingTests {
    static let stream = StreamFormat(format: .mjpeg, size: FrameSize(width: 0, height: 0), bytesPerLine: 0)

    static func session(_ options: CameraOptions) throws -> CameraSession {
        try CameraSession(classifier: try Classifier(options: TestPaths.classifierOptions()), options: options)
    }

    static func leaf() throws -> [UInt8] { try FileReader.readAll(path: TestPaths.appleScabLeaf) }

    static func seconds(since start: UInt64) -> Double { Double(MonotonicClock.nanoseconds() - start) / 1e9 }

    /// With an interval, one reading per tick, each of a frame captured after the tick; the
    /// frames in between are superseded, never queued.
    @Test func everyIntervalTakesOneFreshFramePerTick() throws {
        // Frames for longer than three slow classifications (an emulated aarch64 build).
        let source = ScriptedFrameSource(Array(repeating: .frame(after: 0.02), count: 1500), frame: try Self.leaf())
        var options = CameraOptions(frameLimit: 3, frameTimeout: 5)
        options.interval = 0.3
        let start = MonotonicClock.nanoseconds()
        // When each frame read was captured: a classification's own time varies with the load,
        // so the results' arrival times need not keep the interval, but the frames they read must.
        var captures: [Double] = []
        let summary = try Self.session(options).run(source: source, format: Self.stream, onResult: { result in
            captures.append(source.captureSeconds(of: result.sequence) ?? -1)
            return true
        })
        #expect(summary.classified == 3)
        #expect(summary.counts.superseded > 0, "\(summary.counts)")
        let gaps = zip(captures.dropFirst(), captures).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 >= 0.25 }, "frames captured \(gaps) s apart, the interval is 0.3 s")
        #expect(Self.seconds(since: start) < 30)
    }

    /// The end of a stream ends a long wait for the next tick at once, and the frame still
    /// waiting is classified first.
    @Test func endOfStreamEndsTheWaitForTheNextTick() throws {
        var options = CameraOptions(frameTimeout: 5)
        options.interval = 20
        // The session first: making a classifier takes seconds on an emulated machine, and the
        // script's times count from its making.
        let session = try Self.session(options)
        let source = ScriptedFrameSource([.frame(after: 0), .frame(after: 0.05), .frame(after: 0.05), .end(after: 0.05)], frame: try Self.leaf())
        let start = MonotonicClock.nanoseconds()
        let summary = try session.run(source: source, format: Self.stream, onResult: { _ in true })
        // Well under the interval, not a speed: a debug build under qemu-user on a busy machine took 5.8 s.
        #expect(Self.seconds(since: start) < 15, "a 20 s interval held the end of the stream back")
        #expect(summary.streamEnded)
        #expect(summary.classified >= 1 && summary.classified <= 2)
    }

    /// A stream that has ended before the first tick (a short file piped in) still gets its
    /// reading: the first tick discards nothing.
    @Test func streamOverBeforeTheFirstTickIsRead() throws {
        var options = CameraOptions(frameTimeout: 5)
        options.interval = 20
        let session = try Self.session(options)
        let source = ScriptedFrameSource([.frame(after: 0), .frame(after: 0), .end(after: 0)], frame: try Self.leaf())
        let summary = try session.run(source: source, format: Self.stream, onResult: { _ in true })
        #expect(summary.streamEnded)
        #expect(summary.classified >= 1, "\(summary.counts)")
    }

    /// `--timeout` counts frames, not bytes: a source sending only garbage times out.
    @Test func timeOutCountsFramesNotBytes() throws {
        let source = ScriptedFrameSource([.frame(after: 0)] + Array(repeating: .bytesWithoutFrame(after: 0.02), count: 500),
                                         frame: try Self.leaf())
        let start = MonotonicClock.nanoseconds()
        let summary = try Self.session(CameraOptions(frameTimeout: 0.5)).run(source: source, format: Self.stream, onResult: { _ in true })
        #expect(summary.failure == .noFrame(path: "scripted", timeout: 0.5), "\(String(describing: summary.failure))")
        // Before the garbage's 10 s are over: the bytes did not keep the run alive.
        #expect(Self.seconds(since: start) < 8)
    }

    /// The time-out ends a long wait for the next tick too.
    @Test func timeOutEndsTheWaitForTheNextTick() throws {
        let source = ScriptedFrameSource([.frame(after: 0)], frame: try Self.leaf())
        var options = CameraOptions(frameTimeout: 0.4)
        options.interval = 30
        let start = MonotonicClock.nanoseconds()
        let summary = try Self.session(options).run(source: source, format: Self.stream, onResult: { _ in true })
        #expect(summary.failure == .noFrame(path: "scripted", timeout: 0.4))
        // Well under the 30 s interval it would otherwise have waited.
        #expect(Self.seconds(since: start) < 20)
    }

    @Test func durationEndsTheRun() throws {
        let source = ScriptedFrameSource(Array(repeating: .frame(after: 0.05), count: 400), frame: try Self.leaf())
        let start = MonotonicClock.nanoseconds()
        let summary = try Self.session(CameraOptions(duration: 0.6)).run(source: source, format: Self.stream, onResult: { _ in true })
        let elapsed = Self.seconds(since: start)
        // Ended by the duration, well before the stream's 20 s.
        #expect(elapsed >= 0.55 && elapsed < 15, "\(elapsed) s")
        #expect(summary.failure == nil && !summary.streamEnded && summary.classified >= 1)
    }

    /// Dropped frames are reported, but a flood of them keeps only the newest few notices in
    /// memory and counts the rest.
    @Test func noticesAreBounded() {
        let mailbox = LatestFrame()
        for _ in 0..<100_000 { mailbox.reject(.damaged(.cutOff(afterBytes: 10)), source: "stream") }
        let notices = mailbox.takeNotices()
        #expect(notices.count == LatestFrame.keptNotices + 1)
        #expect(notices.last == .noticesNotShown(count: 100_000 - LatestFrame.keptNotices))
        #expect(mailbox.snapshot.broken == 100_000)
        #expect(mailbox.takeNotices().isEmpty)
    }

    /// A camera read at intervals that fails is retried after pauses that double up to the
    /// last, each failure reported, and its return said once.
    @Test func failingCameraIsRetriedWithGrowingPauses() throws {
        let leaf = try Self.leaf()
        var options = CameraOptions(frameLimit: 2, frameTimeout: 2)
        options.interval = 0.1
        options.settleFrames = 1
        options.retryPauses = (first: 0.05, last: 0.2)
        let setup = DeviceSetup(device: DeviceDescription(path: "/dev/video0", card: "scripted", driver: "test", formats: []),
                                plan: CapturePlan(format: .mjpeg, size: FrameSize(width: 256, height: 256), interval: nil, reason: CaptureChoice(formatRequested: true)),
                                stream: StreamFormat(format: .mjpeg, size: FrameSize(width: 256, height: 256), bytesPerLine: 0), bufferCount: 2)
        var opened = 0
        var notices: [CameraNotice] = []
        let summary = try Self.session(options).runAtIntervals(opening: { () throws(CameraError) -> CameraSession.OpenedCamera in
            opened += 1
            // Works once, then fails four times, then works again.
            guard opened == 1 || opened > 5 else { throw .unplugged(path: "/dev/video0") }
            return CameraSession.OpenedCamera(source: ScriptedFrameSource([.frame(after: 0), .frame(after: 0.01)], frame: leaf),
                                              setup: setup, close: {})
        }, onResult: { _ in true }, onNotice: { notices.append($0) })
        #expect(summary.classified == 2)
        #expect(summary.failedAttempts == 4)
        let error = CameraError.unplugged(path: "/dev/video0")
        #expect(notices == [.retrying(error, pause: 0.05), .retrying(error, pause: 0.1), .retrying(error, pause: 0.2),
                            .retrying(error, pause: 0.2), .cameraBack(device: "/dev/video0", failedAttempts: 4)])
    }

    /// A camera that never worked is a set-up error, with no retry.
    @Test func cameraThatNeverWorkedIsASetupError() throws {
        var options = CameraOptions(frameTimeout: 2)
        options.interval = 0.1
        #expect(throws: CameraError.unplugged(path: "/dev/video0")) {
            try Self.session(options).runAtIntervals(opening: { () throws(CameraError) -> CameraSession.OpenedCamera in
                throw .unplugged(path: "/dev/video0")
            }, onResult: { _ in true })
        }
    }
}
