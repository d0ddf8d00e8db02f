import PlantLeafCore
import PlantLeafSupport

/// An instant as the journal stores it: milliseconds since the Unix epoch (what it sorts and
/// selects by) and the UTC offset the reading was written with, in minutes (so that an exported
/// record shows the local time its camera wrote, 2026-12-02T10:15:30.123+01:00).
public struct JournalTime: Sendable, Equatable, Comparable {
    public var milliseconds: Int64
    public var offsetMinutes: Int

    /// The instants the journal keeps: years 0001 to 9999 (UTC), what ISO 8601 writes with four
    /// digits, and what its arithmetic (offsets, durations, days) cannot overflow.
    public static let millisecondsRange: ClosedRange<Int64> = -62_135_596_800_000 ... 253_402_300_799_999
    /// UTC offsets, in minutes: less than a day either way.
    public static let offsetMinutesRange: ClosedRange<Int> = -1439 ... 1439

    public init(milliseconds: Int64, offsetMinutes: Int) {
        self.milliseconds = milliseconds
        self.offsetMinutes = offsetMinutes
    }

    /// Now, with this machine's offset.
    public static func now() -> JournalTime {
        JournalTime(iso8601: WallClock.localISO8601()) ?? JournalTime(milliseconds: WallClock.nanoseconds() / 1_000_000, offsetMinutes: 0)
    }

    /// ISO 8601's widest UTC offset, ±18:00 (no place uses more than 14 hours).
    static let maximumOffsetMinutes = 18 * 60

    public static func < (left: JournalTime, right: JournalTime) -> Bool { left.milliseconds < right.milliseconds }

    /// Reads ISO 8601 as records write it: YYYY-MM-DDTHH:MM:SS, optional fraction, then Z or ±HH:MM.
    /// The program's one ISO 8601 reader: every time read back (journal, import, API) comes here.
    /// A date alone (YYYY-MM-DD) is its midnight UTC. nil for anything else, and for a day the
    /// month does not have (2026-02-31 is no 3 March) or an offset no place has (beyond ±18:00,
    /// or minutes of 60 and more).
    public init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0, 4), bytes.count >= 10, bytes[4] == 45, let month = number(5, 2), bytes[7] == 45,
              let day = number(8, 2), (1...12).contains(month), (1...31).contains(day) else { return nil }
        let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
        guard CivilDate.civil(fromDays: days) == (year, month, day) else { return nil }
        var hour = 0, minute = 0, second = 0, milliseconds = 0, offset = 0
        var index = 10
        if bytes.count > 10 {
            guard bytes[10] == 84 || bytes[10] == 32, let h = number(11, 2), bytes.count > 13, bytes[13] == 58, let m = number(14, 2),
                  bytes.count > 16, bytes[16] == 58, let s = number(17, 2), h < 24, m < 60, s < 61 else { return nil }
            (hour, minute, second) = (h, m, s)
            index = 19
            if index < bytes.count, bytes[index] == 46 {
                index += 1
                var scale = 100
                while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                    milliseconds += Int(bytes[index] - 48) * scale
                    scale /= 10
                    index += 1
                }
            }
            if index < bytes.count, bytes[index] == 90 {
                index += 1
            } else if index < bytes.count, bytes[index] == 43 || bytes[index] == 45, let oh = number(index + 1, 2),
                      index + 3 < bytes.count, bytes[index + 3] == 58, let om = number(index + 4, 2),
                      om < 60, oh * 60 + om <= JournalTime.maximumOffsetMinutes {
                offset = (bytes[index] == 45 ? -1 : 1) * (oh * 60 + om)
                index += 6
            } else {
                return nil
            }
        }
        guard index == bytes.count else { return nil }
        let local = ((Int64(days) * 24 + Int64(hour)) * 60 + Int64(minute)) * 60 + Int64(second)
        let instant = (local - Int64(offset) * 60) * 1000 + Int64(milliseconds)
        // What the journal could not keep, it does not read either.
        guard JournalTime.millisecondsRange.contains(instant), JournalTime.offsetMinutesRange.contains(offset) else { return nil }
        self.init(milliseconds: instant, offsetMinutes: offset)
    }

    /// A time as a person types it, read at `now`'s offset (the machine's, or the viewer's):
    /// `today` and `yesterday` (their midnight), a span ago (`2h`, `30m`, `3d`), a day
    /// (`2026-12-07`, its midnight) or a day and time without an offset (`2026-12-07T01:05`,
    /// `2026-12-07 01:05:30`), or full ISO 8601 with its own offset (`2026-12-07T01:05:00+02:00`),
    /// read by `init(iso8601:)`. nil for anything else.
    public init?(typed text: String, now: JournalTime) {
        let word = text.trimmingWhitespace().lowercased()
        let day: Int64 = 86_400_000, offset = Int64(now.offsetMinutes) * 60_000
        let midnight = (now.milliseconds + offset - (now.milliseconds + offset < 0 ? day - 1 : 0)) / day * day - offset
        let units: [(suffix: String, milliseconds: Int64)] = [("min", 60_000), ("m", 60_000), ("h", 3_600_000), ("d", day)]
        if word == "today" || word == "yesterday" {
            self.init(milliseconds: midnight - (word == "yesterday" ? day : 0), offsetMinutes: now.offsetMinutes)
        } else if let unit = units.first(where: { word.hasSuffix($0.suffix) }), let count = Int64(word.dropLast(unit.suffix.count)),
                  count >= 0, count <= 10_000 * 366, JournalTime.millisecondsRange.contains(now.milliseconds - count * unit.milliseconds) {
            self.init(milliseconds: now.milliseconds - count * unit.milliseconds, offsetMinutes: now.offsetMinutes)
        } else {
            // Without an offset the time is local: the offset is added and ISO 8601 reads it.
            let sign = now.offsetMinutes < 0 ? "-" : "+", minutes = abs(now.offsetMinutes)
            let zone = sign + (minutes / 60 < 10 ? "0" : "") + String(minutes / 60) + ":" + (minutes % 60 < 10 ? "0" : "") + String(minutes % 60)
            let local: String? = switch word.utf8.count {
            case 10: word + "t00:00:00" + zone
            case 16: word + ":00" + zone
            case 19: word + zone
            default: nil
            }
            guard let time = JournalTime(iso8601: (local ?? text).uppercased()) else { return nil }
            self = time
        }
    }

    /// ISO 8601 at its own offset with milliseconds, as `WallClock.localISO8601` writes.
    public var iso8601: String {
        let local = milliseconds + Int64(offsetMinutes) * 60_000
        let seconds = local >= 0 ? local / 1000 : (local - 999) / 1000
        let fraction = Int(local - seconds * 1000)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = Int(seconds - days * 86_400)
        let (year, month, day) = CivilDate.civil(fromDays: Int(days))
        func padded(_ value: Int, _ digits: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        let sign = offsetMinutes < 0 ? "-" : "+"
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T\(padded(inDay / 3600, 2)):\(padded(inDay / 60 % 60, 2)):"
            + "\(padded(inDay % 60, 2)).\(padded(fraction, 3))\(sign)\(padded(abs(offsetMinutes) / 60, 2)):\(padded(abs(offsetMinutes) % 60, 2))"
    }
}
