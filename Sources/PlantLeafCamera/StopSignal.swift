import PlantLeafCore
import Glibc
import PlantLeafSupport

/// The write end of the stop pipe, for the signal handler (which can reach only globals). Set
/// before the handlers are installed and cleared after they are restored.
nonisolated(unsafe) private var stopPipeWriteEnd: Int32 = -1

/// Ctrl-C, SIGTERM and "enough frames" all become one byte in a pipe that the capture thread
/// polls next to the camera, so a stop is noticed at once wherever the program is, and the
/// stream is always shut down by the normal path (STREAMOFF, unmap) instead of by the signal.
final class StopSignal: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32
    /// The handlers to put back when the run is over.
    private let previous: [Int32: sighandler_t?]

    init() throws(CameraError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw .setupFailed(path: "plantleaf", step: .makeStopPipe, reason: .system(SystemError(errno)))
        }
        // Never block: not the handler on a full pipe, not a check for a signal that never came.
        for end in ends {
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
        stopPipeWriteEnd = writeEnd
        var previous: [Int32: sighandler_t?] = [:]
        for number in [SIGINT, SIGTERM] {
            previous[number] = SignalHandler.install(number) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(stopPipeWriteEnd, &byte, 1)
            }
        }
        self.previous = previous
    }

    deinit {
        for (number, handler) in previous { signal(number, handler) }
        stopPipeWriteEnd = -1
        close(readEnd)
        close(writeEnd)
    }

    /// Asks the capture thread to stop (0: not a signal).
    func trigger() {
        var byte: UInt8 = 0
        _ = write(writeEnd, &byte, 1)
    }

    /// The signal that stopped the run, if one did (reads without consuming the stop).
    func receivedSignal() -> Int32? {
        var byte: UInt8 = 0
        guard read(readEnd, &byte, 1) == 1 else { return nil }
        trigger()  // keep the pipe readable for anyone else polling it
        return byte == 0 ? nil : Int32(byte)
    }
}
