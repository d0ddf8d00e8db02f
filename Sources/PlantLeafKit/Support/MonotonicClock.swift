import Glibc

/// Nanoseconds from CLOCK_MONOTONIC: unaffected by wall-clock changes, for latency measurement.
public enum MonotonicClock {
    public static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Milliseconds elapsed since `start` (a value from `nanoseconds()`).
    public static func milliseconds(since start: UInt64) -> Double {
        Double(nanoseconds() &- start) / 1_000_000
    }
}
