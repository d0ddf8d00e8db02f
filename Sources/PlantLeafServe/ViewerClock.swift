import PlantLeafCore
import PlantLeafJournal
import PlantLeafSupport

/// The viewer's clock: every page shows times at the viewer's UTC offset, which the browser tells
/// in a cookie (`clock.js` sets it on every page); the server's own offset until it has.
enum ViewerClock {
    /// The cookie clock.js sets: the browser's offset, in minutes east of UTC ("120" in Cairo).
    static let cookieName = "plantleaf_utc_offset"

    /// The viewer's offset from the request's cookie; nil without one, or with one no place has.
    static func offsetMinutes(for request: HTTPRequest) -> Int? {
        for pair in (request.headers["cookie"] ?? "").split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingWhitespace() == cookieName, let minutes = Int(parts[1].trimmingWhitespace()),
               JournalTime.offsetMinutesRange.contains(minutes) {
                return minutes
            }
        }
        return nil
    }

    /// Now, at the viewer's offset (the server's without the cookie).
    static func now(for request: HTTPRequest) -> JournalTime {
        let now = JournalTime.now()
        return JournalTime(milliseconds: now.milliseconds, offsetMinutes: offsetMinutes(for: request) ?? now.offsetMinutes)
    }

    /// What a server-drawn page tells clock.js: the offset its times were drawn at, so that a
    /// page drawn before the cookie said the viewer's is drawn again once.
    static func drawnAt(_ now: JournalTime) -> String {
        PageTemplate.serve.render("drawn-at.html", ["offset": String(now.offsetMinutes)])
    }
}
