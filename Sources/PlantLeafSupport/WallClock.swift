import Glibc

/// Calendar time for records people read and tools parse (log lines, MQTT payloads, bench
/// reports). Durations never come from here: they use `MonotonicClock`, which does not jump
/// when NTP sets the clock.
package enum WallClock {
    /// Nanoseconds since the Unix epoch.
    package static func nanoseconds() -> Int64 {
        systemClockNanoseconds(CLOCK_REALTIME)
    }

    /// The wall-clock time of an instant on the monotonic clock (a frame's capture time), as
    /// seen from now: the wall clock now, less the monotonic time since.
    package static func nanoseconds(ofMonotonic instant: UInt64) -> Int64 {
        let monotonicNow = MonotonicClock.nanoseconds()
        return nanoseconds() - Int64(bitPattern: monotonicNow &- instant)
    }

    /// ISO 8601 in local time with its offset and milliseconds, e.g.
    /// 2026-12-02T10:15:30.123+01:00: what a grower reads, and sortable and exact for tools.
    package static func localISO8601(nanoseconds: Int64 = WallClock.nanoseconds()) -> String {
        var seconds = time_t(nanoseconds / 1_000_000_000)
        let milliseconds = Int(nanoseconds % 1_000_000_000) / 1_000_000
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return utcISO8601(nanoseconds: nanoseconds) }
        let offsetMinutes = parts.tm_gmtoff / 60
        let sign = offsetMinutes < 0 ? "-" : "+"
        return format(parts, "%Y-%m-%dT%H:%M:%S") + "." + padded(milliseconds, 3)
            + sign + padded(abs(offsetMinutes) / 60, 2) + ":" + padded(abs(offsetMinutes) % 60, 2)
    }

    /// ISO 8601 in UTC to the second, e.g. 2026-12-02T09:15:30Z.
    package static func utcISO8601(nanoseconds: Int64 = WallClock.nanoseconds()) -> String {
        var seconds = time_t(nanoseconds / 1_000_000_000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return format(parts, "%Y-%m-%dT%H:%M:%SZ")
    }

    private static func format(_ parts: tm, _ pattern: String) -> String {
        var parts = parts
        var buffer = [CChar](repeating: 0, count: 40)
        let length = strftime(&buffer, buffer.count, pattern, &parts)
        return length > 0 ? stringFromCBuffer(buffer) : "unknown"
    }

    private static func padded(_ value: Int, _ digits: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
