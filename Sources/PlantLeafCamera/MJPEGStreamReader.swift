import PlantLeafCore
import Glibc
import PlantLeafSupport

/// A motion-JPEG stream from a file, a pipe or standard input as a frame source: read on the
/// capture thread, split into frames, each whole frame handed to the one-frame mailbox as a
/// device's are: the newest frame wins, a slow model never builds a backlog.
final class MJPEGStreamReader: FrameSource {
    /// "-" for standard input.
    let path: String
    /// How the path is shown in messages.
    var name: String { path == "-" ? "standard input" : path }
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    // Touched only by the capture thread once it runs.
    private var parser: MJPEGStreamParser
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var sequence: UInt32 = 0

    /// Opens `path` ("-": standard input) without blocking, so a FIFO with no writer yet is
    /// waited for by poll, where a stop is seen, rather than inside open.
    init(path: String, maxFrameBytes: Int) throws(CameraError) {
        self.path = path
        parser = MJPEGStreamParser(maxFrameBytes: maxFrameBytes)
        let name = path == "-" ? "standard input" : path
        if path == "-" {
            guard isatty(STDIN_FILENO) == 0 else {
                throw .cannotOpen(path: name, reason: .standardInputIsTerminal)
            }
            descriptor = STDIN_FILENO
            ownsDescriptor = false
        } else {
            descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else { throw .cannotOpen(path: name, reason: .system(SystemError(errno))) }
            ownsDescriptor = true
        }
        var status = stat()
        let kind = fstat(descriptor, &status) == 0 ? status.st_mode & S_IFMT : 0
        guard kind == S_IFREG || kind == S_IFIFO || kind == S_IFSOCK else {
            if ownsDescriptor { close(descriptor) }
            throw .cannotOpen(path: name, reason: .notAStream)
        }
        // Standard input may have been handed over blocking: poll decides when to read.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Reads what the stream has until `deadline` or until `wake` is readable, and hands each
    /// whole frame to the mailbox. Returns after the first read that completed a frame, so the
    /// capture loop counts the time without frames from the last whole frame, not the last byte.
    func next(until deadline: UInt64, wake: Int32, into mailbox: LatestFrame) throws(CameraError) -> FrameSourceStep {
        while true {
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            let ready: Int32
            do {
                // The timeout is worked out again on each try: a signal must not stretch the wait.
                ready = try SystemCall.retryingInterrupts { poll(&descriptors, 2, MonotonicClock.pollTimeout(until: deadline)) }
            } catch {
                throw .streamFailed(path: name, reason: .poll(error))
            }
            if descriptors[1].revents != 0 { return .woken }
            if ready == 0 { return .waiting }
            let count: Int
            do {
                count = try SystemCall.retryingInterrupts { chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) } }
            } catch where error.code == EAGAIN {
                // poll said readable, yet nothing is there now: wait again.
                continue
            } catch {
                throw .streamFailed(path: name, reason: .read(error))
            }
            if count == 0 {
                if parser.partialFrameBytes > 0 { mailbox.reject(.endedInsideFrame(bytes: parser.partialFrameBytes), source: name) }
                return .ended
            }
            let arrived = MonotonicClock.nanoseconds()
            var delivered = false
            let events = chunk.withUnsafeBytes { parser.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            for event in events {
                switch event {
                case .frame(let bytes):
                    sequence &+= 1
                    bytes.withUnsafeBytes { mailbox.put($0, sequence: sequence, timestamp: arrived) }
                    delivered = true
                case .oversized(let limit):
                    mailbox.reject(.oversized(limit: limit), source: name)
                case .damaged(let damage):
                    mailbox.reject(.damaged(damage), source: name)
                }
            }
            mailbox.setSkippedBytes(parser.skippedBytes)
            return delivered ? .delivered : .waiting
        }
    }
}
