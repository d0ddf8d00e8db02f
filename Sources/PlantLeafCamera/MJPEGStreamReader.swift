import PlantLeafCore
import Glibc

/// Reads a motion-JPEG stream from a file, a pipe or standard input on the capture thread,
/// splits it into frames and hands each whole frame to the one-frame mailbox, exactly as the
/// V4L2 capture loop does: the newest frame wins, a slow model never builds a backlog.
final class MJPEGStreamReader: @unchecked Sendable {
    /// "-" for standard input.
    let path: String
    /// How the path is shown in messages.
    var displayName: String { path == "-" ? "standard input" : path }
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    // Touched only by the capture thread once it runs.
    private var parser: MJPEGStreamParser

    /// Opens `path` ("-": standard input) without blocking, so a FIFO with no writer yet is
    /// waited for by poll, where a stop is seen, rather than inside open.
    init(path: String, maxFrameBytes: Int) throws(CameraError) {
        self.path = path
        parser = MJPEGStreamParser(maxFrameBytes: maxFrameBytes)
        let name = path == "-" ? "standard input" : path
        if path == "-" {
            guard isatty(STDIN_FILENO) == 0 else {
                throw .cannotOpen(path: name, reason: "it is a terminal; pipe a motion-JPEG stream into it")
            }
            descriptor = STDIN_FILENO
            ownsDescriptor = false
        } else {
            descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else { throw .cannotOpen(path: name, reason: SystemError(errno).reason) }
            ownsDescriptor = true
        }
        var status = stat()
        let kind = fstat(descriptor, &status) == 0 ? status.st_mode & S_IFMT : 0
        guard kind == S_IFREG || kind == S_IFIFO || kind == S_IFSOCK else {
            if ownsDescriptor { close(descriptor) }
            throw .cannotOpen(path: name, reason: "not a file, pipe or socket")
        }
        // Standard input may have been handed over blocking: poll decides when to read.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Reads until the stream ends, `stopDescriptor` becomes readable, no bytes come for
    /// `timeout` seconds or `deadline` (monotonic) passes, and tells the mailbox which.
    func run(into mailbox: LatestFrame, stopDescriptor: Int32, timeout: Double, deadline: UInt64?) {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var sequence: UInt32 = 0
        var lastBytes = MonotonicClock.nanoseconds()
        while true {
            let now = MonotonicClock.nanoseconds()
            if let deadline, now >= deadline { return mailbox.finish(.durationReached) }
            let silence = lastBytes + UInt64(timeout * 1e9)
            guard now < silence else { return mailbox.finish(.failed(.noFrame(path: displayName, timeout: timeout))) }
            let wakeUp = min(silence, deadline ?? silence)
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: stopDescriptor, events: Int16(POLLIN), revents: 0)]
            let ready: Int32
            do {
                // The timeout is worked out again on each try: a signal must not stretch the wait.
                ready = try SystemCall.retryingInterrupts { poll(&descriptors, 2, MonotonicClock.pollTimeout(until: wakeUp)) }
            } catch {
                return mailbox.finish(.failed(.streamFailed(path: displayName, reason: "poll: \(error.reason)")))
            }
            if descriptors[1].revents != 0 { return mailbox.finish(.stopped) }
            if ready == 0 { continue }
            let count: Int
            do {
                count = try SystemCall.retryingInterrupts { chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) } }
            } catch where error.code == EAGAIN {
                // poll said readable, yet nothing is there now: wait again.
                continue
            } catch {
                return mailbox.finish(.failed(.streamFailed(path: displayName, reason: "read: \(error.reason)")))
            }
            if count == 0 {
                if parser.partialFrameBytes > 0 {
                    mailbox.reject(oversized: false, notice: "\(displayName): stream ended inside a frame (\(parser.partialFrameBytes) bytes): dropped")
                }
                return mailbox.finish(.endOfStream)
            }
            lastBytes = MonotonicClock.nanoseconds()
            let events = chunk.withUnsafeBytes { parser.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            for event in events {
                switch event {
                case .frame(let bytes):
                    sequence &+= 1
                    bytes.withUnsafeBytes { frame in
                        mailbox.put(DequeuedFrame(index: 0, bytes: frame, sequence: sequence, timestamp: lastBytes, flaggedError: false))
                    }
                case .oversized(let limit):
                    mailbox.reject(oversized: true, notice: "\(displayName): frame over the \(limit)-byte limit: dropped")
                case .damaged(let reason):
                    mailbox.reject(oversized: false, notice: "\(displayName): damaged frame dropped: \(reason)")
                }
            }
            mailbox.setSkippedBytes(parser.skippedBytes)
        }
    }
}
