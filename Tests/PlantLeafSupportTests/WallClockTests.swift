import Glibc
import PlantLeafSupport
import Testing

/// Calendar times in camera records: ISO 8601, milliseconds, the local offset.
@Suite struct WallClockTests {
    @Test func localTimeCarriesMillisecondsAndTheOffset() throws {
        let text = WallClock.localISO8601(nanoseconds: 1_764_670_530_123_456_789)
        let pattern = try Regex(#"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.123[+-]\d\d:\d\d$"#)
        #expect(text.wholeMatch(of: pattern) != nil, "\(text)")
        #expect(WallClock.utcISO8601(nanoseconds: 1_764_670_530_123_456_789) == "2025-12-02T10:15:30Z")
    }

    @Test func offsetFollowsTheTimeZone() {
        // A POSIX rule, so no tzdata is needed: Central European Time, summer time March to October.
        setenv("TZ", "CET-1CEST,M3.5.0,M10.5.0/3", 1)
        tzset()
        defer { unsetenv("TZ"); tzset() }
        #expect(WallClock.localISO8601(nanoseconds: 1_764_670_530_000_000_000) == "2025-12-02T11:15:30.000+01:00")
        #expect(WallClock.localISO8601(nanoseconds: 1_751_451_330_000_000_000) == "2025-07-02T12:15:30.000+02:00")
    }
}
