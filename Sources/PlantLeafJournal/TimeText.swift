/// Times and durations as a grower reads them: "Tue 2 Dec 06:40", "2 d 13 h".
public enum TimeText {
    static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// "Tue 2 Dec 06:40", in the time's own offset.
    public static func readable(_ time: JournalTime) -> String {
        let iso = time.iso8601
        return day(time) + " " + String(iso.dropFirst(11).prefix(5))
    }

    /// "Tue 2 Dec".
    public static func day(_ time: JournalTime) -> String {
        let local = time.milliseconds + Int64(time.offsetMinutes) * 60_000
        let days = Int(local >= 0 ? local / 86_400_000 : (local - 86_399_999) / 86_400_000)
        let date = JournalTime.civil(fromDays: days)
        return "\(weekdays[((days % 7) + 7) % 7]) \(date.day) \(months[date.month - 1])"
    }

    /// "3 d 4 h", "2 h 5 min", "7 min", "40 s".
    public static func duration(_ milliseconds: Int64) -> String {
        let seconds = max(0, milliseconds / 1000)
        if seconds >= 86_400 { return "\(seconds / 86_400) d \(seconds % 86_400 / 3600) h" }
        if seconds >= 3600 { return "\(seconds / 3600) h \(seconds % 3600 / 60) min" }
        if seconds >= 60 { return "\(seconds / 60) min" }
        return "\(seconds) s"
    }
}
