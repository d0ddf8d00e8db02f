import Glibc
import PlantLeafCore
import PlantLeafJournal

/// The camera's --log file read back for the history page and `/api/history`: its readings over
/// the last day and the last week, counted by verdict per hour (day) or per six hours (week),
/// and the classes diagnosed most. Each line is read with the record decoder
/// (`ReadingRecord(decoding:)`); the run summaries a camera writes when it stops are passed
/// over, and any other line that is not a camera record (cut short by a power cut, damaged) is
/// counted as unreadable, never guessed at. Only the file's last `tailBytes` are read, so a log
/// of months costs no more than a week's worth; the summary says from when it covers.
public final class ReadingHistory: Sendable {
    /// One window: its buckets and its totals.
    struct Window {
        let name: String
        let seconds: Int64
        let bucketSeconds: Int64
        var start: Int64 = 0
        var buckets: [[Verdict: Int]] = []
        var verdicts: [Verdict: Int] = [:]
        /// The same readings by what they mean (healthy, a problem …), as the page colours them.
        var meaningBuckets: [[ReadingMeaning: Int]] = []
        var meanings: [ReadingMeaning: Int] = [:]
        var diagnoses: [String: Int] = [:]
    }

    struct Summary {
        var day: Window
        var week: Window
        /// The earliest reading read (nil: none), and whether older lines were left unread.
        var earliest: Int64?
        var truncated: Bool
        /// Lines that are neither camera records nor run summaries.
        var unreadableLines: Int
    }

    public let path: String
    /// Bytes read from the end of the log: a week of one reading a minute is about 4 MiB.
    static let tailBytes = 16 << 20
    /// A summary is made again at most this often, however many viewers ask.
    private static let reuseSeconds = 10.0

    /// The summary made last, and when (monotonic nanoseconds).
    private let cached = Lock<(made: UInt64, summary: Summary)?>(nil)

    public init(logPath: String) { path = logPath }

    /// The summary as of now (at most `reuseSeconds` old).
    ///
    /// - Throws: `FileReadError` when the log cannot be read.
    func summary() throws(FileReadError) -> Summary {
        let outcome: Result<Summary, FileReadError> = cached.withLock { cached in
            if let cached, MonotonicClock.milliseconds(since: cached.made) < ReadingHistory.reuseSeconds * 1000 { return .success(cached.summary) }
            let tail: (bytes: [UInt8], truncated: Bool)
            do throws(FileReadError) {
                tail = try readTail()
            } catch {
                return .failure(error)
            }
            let made = ReadingHistory.summarise(tail: tail, now: WallClock.nanoseconds() / 1_000_000_000)
            cached = (MonotonicClock.nanoseconds(), made)
            return .success(made)
        }
        return try outcome.get()
    }

    private func readTail() throws(FileReadError) -> (bytes: [UInt8], truncated: Bool) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system(SystemError(errno)) }
        defer { close(descriptor) }
        let size = lseek(descriptor, 0, SEEK_END)
        guard size >= 0 else { throw .system(SystemError(errno)) }
        let start = max(0, Int(size) - ReadingHistory.tailBytes)
        var bytes = [UInt8](repeating: 0, count: Int(size) - start)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, $0.count - filled, off_t(start + filled)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        bytes.removeLast(bytes.count - filled)
        // A tail that starts mid-line drops that line's piece.
        if start > 0, let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) { bytes.removeFirst(newline + 1) }
        return (bytes, start > 0)
    }

    /// Counts the readings of `tail` (the log's last lines) into the day and week before `now`
    /// (seconds since the epoch).
    static func summarise(tail: (bytes: [UInt8], truncated: Bool), now: Int64) -> Summary {
        var day = Window(name: "day", seconds: 86_400, bucketSeconds: 3600)
        var week = Window(name: "week", seconds: 7 * 86_400, bucketSeconds: 6 * 3600)
        for index in [0, 1] {
            var window = index == 0 ? day : week
            // Buckets end at the next whole bucket after now, so an hour's bar is a clock hour.
            let end = (now / window.bucketSeconds + 1) * window.bucketSeconds
            window.start = end - window.seconds
            window.buckets = Array(repeating: [:], count: Int(window.seconds / window.bucketSeconds))
            window.meaningBuckets = window.buckets.map { _ in [:] }
            if index == 0 { day = window } else { week = window }
        }
        var earliest: Int64?
        var unreadable = 0
        for line in tail.bytes.split(separator: UInt8(ascii: "\n")) {
            let reading: LogReading
            do throws(ReadingRecordError) {
                reading = try LogReading(line: Array(line))
            } catch .summary {
                continue
            } catch {
                unreadable += 1
                continue
            }
            earliest = min(earliest ?? reading.time, reading.time)
            day.count(reading)
            week.count(reading)
        }
        return Summary(day: day, week: week, earliest: earliest, truncated: tail.truncated, unreadableLines: unreadable)
    }
}

extension ReadingHistory.Window {
    mutating func count(_ reading: LogReading) {
        let offset = reading.time - start
        guard offset >= 0, offset < seconds else { return }
        buckets[Int(offset / bucketSeconds)][reading.verdict, default: 0] += 1
        verdicts[reading.verdict, default: 0] += 1
        let meaning = ReadingMeaning(verdict: reading.verdict, label: reading.topLabel)
        meaningBuckets[Int(offset / bucketSeconds)][meaning, default: 0] += 1
        meanings[meaning, default: 0] += 1
        if reading.verdict == .diagnosis, let label = reading.topLabel { diagnoses[label, default: 0] += 1 }
    }
}

/// What the history needs of one camera record: when, the verdict, and the top class.
struct LogReading {
    var time: Int64
    var verdict: Verdict
    var topLabel: String?

    /// The reading of `line`, a camera record (of either schema).
    ///
    /// - Throws: `ReadingRecordError`: `.summary` for a run's summary; otherwise the line is no
    ///   camera record, or its "time" is missing or not a time the camera writes.
    init(line: [UInt8]) throws(ReadingRecordError) {
        let record = try ReadingRecord(decoding: line)
        guard let text = record.time else { throw .missingField("time") }
        guard let time = JournalTime(iso8601: text) else { throw .invalidField("time") }
        // Whole seconds, rounded down also before 1970.
        self.time = (time.milliseconds - (time.milliseconds < 0 ? 999 : 0)) / 1000
        verdict = record.verdict
        topLabel = record.top.first?.label
    }
}

/// The history's line reader for the fuzzer, which sees the package's surface only.
package enum ServeFuzzing {
    /// Reads `line` as the history does: its time when it is a camera record, or why not.
    package static func logReading(_ line: [UInt8]) -> Result<Int64, ReadingRecordError> {
        do throws(ReadingRecordError) {
            return .success(try LogReading(line: line).time)
        } catch {
            return .failure(error)
        }
    }
}
