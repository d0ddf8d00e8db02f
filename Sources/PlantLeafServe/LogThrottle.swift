import PlantLeafCore
import PlantLeafSupport
import Synchronization

/// Keeps anyone who can reach the port from filling the log: lines of one kind (a status and a
/// method, a library complaint) are written as they come up to `burst` in each `window` seconds;
/// past that they are counted, and the first line of the kind in a later window says how many
/// were left out. A quiet server logs every line; a flood logs a few lines every window.
final class LogThrottle: Sendable {
    private struct Kind {
        var windowStart: UInt64
        var written = 0
        var leftOut = 0
    }

    private let kinds = Mutex<[String: Kind]>([:])
    private let window: UInt64
    private let burst: Int
    private let clock: any MonotonicTimeSource
    /// The most kinds remembered: the oldest windows are forgotten past it, so kinds made up by a
    /// client (each path its own) cannot grow the table.
    private static let kindsKept = 256

    init(windowSeconds: Double = 10, burst: Int = 10, clock: any MonotonicTimeSource = SystemMonotonicTime()) {
        window = UInt64(windowSeconds * 1e9)
        self.burst = burst
        self.clock = clock
    }

    /// `line` as it is to be written (with a count of the lines of its kind left out before it),
    /// or nil when it is to be left out.
    func admit(_ line: String, kind: String) -> String? {
        let now = clock.nanoseconds()
        return kinds.withLock { kinds in
            var entry = kinds[kind] ?? Kind(windowStart: now)
            var note = ""
            if now - entry.windowStart >= window {
                if entry.leftOut > 0 {
                    note = " (\(entry.leftOut) more like it left out since the last one shown)"
                }
                entry = Kind(windowStart: now)
            }
            defer {
                if kinds[kind] == nil && kinds.count >= LogThrottle.kindsKept {
                    let oldest = kinds.min { $0.value.windowStart < $1.value.windowStart }!.key
                    kinds[oldest] = nil
                }
                kinds[kind] = entry
            }
            guard entry.written < burst else {
                entry.leftOut += 1
                return nil
            }
            entry.written += 1
            return line + note
        }
    }
}
