import Glibc

/// Nanoseconds from CLOCK_MONOTONIC: unaffected by wall-clock changes, for latency measurement.
package enum MonotonicClock {
    /// CLOCK_MONOTONIC now, in nanoseconds: for durations, unaffected by changes of the wall clock.
    package static func nanoseconds() -> UInt64 {
        UInt64(systemClockNanoseconds(CLOCK_MONOTONIC))
    }

    /// Milliseconds elapsed since `start` (a value from `nanoseconds()`).
    package static func milliseconds(since start: UInt64) -> Double {
        Double(nanoseconds() &- start) / 1_000_000
    }

    /// poll's timeout for waiting until `deadline` (a value from `nanoseconds()`): whole
    /// milliseconds rounded up, so the wait never ends just short of it; at most 1000 s; 0 once
    /// the deadline has passed.
    package static func pollTimeout(until deadline: UInt64) -> Int32 {
        let now = nanoseconds()
        guard now < deadline else { return 0 }
        return Int32(min((deadline - now) / 1_000_000 + 1, 1_000_000))
    }
}

/// Where a decision that depends on time reads the time: the system's monotonic clock in the
/// program, a clock set by hand in tests, so what the decision does at each moment is tested
/// without waiting for it.
package protocol MonotonicTimeSource: Sendable {
    /// Now, in nanoseconds on the scale of `MonotonicClock.nanoseconds()`.
    func nanoseconds() -> UInt64
}

/// `MonotonicClock` as a time source.
package struct SystemMonotonicTime: MonotonicTimeSource {
    package init() {}
    package func nanoseconds() -> UInt64 { MonotonicClock.nanoseconds() }
}

/// `clock` as clock_gettime reads it, in nanoseconds: what `MonotonicClock` and `WallClock` both read.
func systemClockNanoseconds(_ clock: clockid_t) -> Int64 {
    var time = timespec()
    clock_gettime(clock, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}
