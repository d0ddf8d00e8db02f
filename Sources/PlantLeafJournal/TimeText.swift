import PlantLeafCore

/// Times and durations as a grower reads them: "Tue 2 Dec 06:40", "2 d 13 h" in English, the
/// catalogue's names of days and months and its units in another language; the digits are the
/// Western ones the rest of the page uses.
public enum TimeText {
    /// From 1 January 1970, a Thursday: day 0's weekday first.
    static let weekdays = ["thu", "fri", "sat", "sun", "mon", "tue", "wed"]
    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// "Tue 2 Dec 06:40", in the time's own offset.
    public static func readable(_ time: JournalTime, in catalogue: Catalogue = .english) -> String {
        let iso = time.iso8601
        return catalogue.text("time.day-and-time", ["day": day(time, in: catalogue), "time": String(iso.dropFirst(11).prefix(5))])
    }

    /// "Tue 2 Dec".
    public static func day(_ time: JournalTime, in catalogue: Catalogue = .english) -> String {
        let local = time.milliseconds + Int64(time.offsetMinutes) * 60_000
        let days = Int(local >= 0 ? local / 86_400_000 : (local - 86_399_999) / 86_400_000)
        let date = CivilDate.civil(fromDays: days)
        return catalogue.text("time.day", ["weekday": catalogue["time.weekday." + weekdays[((days % 7) + 7) % 7]], "day": String(date.day),
                                           "month": catalogue["time.month." + months[date.month - 1]]])
    }

    /// "3 d 4 h", "2 h 5 min", "7 min", "40 s"; in Arabic each count with its noun's form
    /// («ساعتان و5 دقائق»).
    public static func duration(_ milliseconds: Int64, in catalogue: Catalogue = .english) -> String {
        let seconds = Int(max(0, milliseconds / 1000))
        if seconds >= 86_400 {
            return catalogue.text("time.days-hours", ["days": catalogue.count("day", seconds / 86_400),
                                                      "hours": catalogue.count("hour", seconds % 86_400 / 3600)])
        }
        if seconds >= 3600 {
            return catalogue.text("time.hours-minutes", ["hours": catalogue.count("hour", seconds / 3600),
                                                         "minutes": catalogue.count("minute", seconds % 3600 / 60)])
        }
        if seconds >= 60 { return catalogue.count("minute", seconds / 60) }
        return catalogue.count("second", seconds)
    }
}
