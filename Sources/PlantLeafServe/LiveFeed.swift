import PlantLeafCore
import PlantLeafSupport

/// The camera's newest reading as `serve` shows it: its record, the frame the model was
/// given (encoded once, as JPEG, however many viewers there are), and counts for the metrics.
/// The camera thread publishes; page and stream requests read, or wait for the next one.
public final class LiveFeed: Sendable {
    /// One reading.
    struct Reading {
        /// The camera's record of it, what `/api/latest` answers.
        var record: ReadingRecord
        var frameJPEG: [UInt8]?
        /// The frame as one part of /stream.mjpg, made once for every viewer.
        var streamPart: [UInt8]?
        /// 1 for the first reading, then counting up: a viewer waits for a larger one.
        var number: UInt64
    }

    /// Where the camera run is.
    public enum State: String, Sendable {
        case starting, running
        /// An --input stream ended: the last reading stays.
        case ended
    }

    private struct Feed {
        var newest: Reading?
        var state = State.starting
        var closed = false
        var counts = Counts()
    }

    private let feed = Lock(Feed())

    /// What `/metrics` shows of the camera.
    struct Counts {
        var verdicts: [Verdict: Int] = [:]
        /// The camera's count of frames it dropped before they were read.
        var droppedFrames = 0
        var frameAge = LatencyHistogram()
    }

    public init() {}

    /// A new reading: the camera's record of a frame (its verdict, the camera's count of dropped
    /// frames so far, the frame's age from capture to scores), and the frame as JPEG.
    public func publish(_ record: ReadingRecord, frameJPEG: [UInt8]?) {
        feed.withLock { feed in
            let frame = frameJPEG ?? feed.newest?.frameJPEG
            feed.newest = Reading(record: record, frameJPEG: frame, streamPart: frame.map(MJPEGViewer.part),
                                  number: (feed.newest?.number ?? 0) + 1)
            feed.state = .running
            feed.counts.verdicts[record.verdict, default: 0] += 1
            feed.counts.droppedFrames = record.dropped ?? 0
            if let age = record.ageMilliseconds { feed.counts.frameAge.add(seconds: age / 1000) }
            self.feed.broadcast()
        }
    }

    /// The stream the camera read has ended; the pages keep its last reading.
    public func streamEnded() {
        feed.withLock { $0.state = .ended }
    }

    /// Wakes every waiting viewer for good: the server is stopping.
    public func close() {
        feed.withLock { feed in
            feed.closed = true
            self.feed.broadcast()
        }
    }

    var current: (reading: Reading?, state: State) { feed.withLock { ($0.newest, $0.state) } }

    var currentCounts: Counts { feed.withLock { $0.counts } }

    /// The first reading numbered above `number`, waiting for it up to `seconds`; after that
    /// the newest there is (a viewer gets the same frame again rather than nothing). Nil once
    /// closed, or when there has been no reading at all.
    func reading(after number: UInt64, waitingUpTo seconds: Double) -> Reading? {
        let deadline = MonotonicClock.nanoseconds() + UInt64(seconds * 1e9)
        return feed.withLock(waitingUntil: { $0.closed || ($0.newest?.number ?? 0) > number }, deadline: deadline) { feed in
            feed.closed ? nil : feed.newest
        }
    }
}
