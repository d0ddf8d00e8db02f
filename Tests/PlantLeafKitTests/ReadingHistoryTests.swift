import PlantLeafCore
@testable import PlantLeafServe
import Testing

/// The history page's reading of the --log file: camera times, windows and buckets.
@Suite struct ReadingHistoryTests {
    @Test func timesAsTheCameraWritesThem() {
        #expect(ISO8601Time.seconds("1970-01-01T00:00:00Z") == 0)
        #expect(ISO8601Time.seconds("2026-12-03T18:40:01.280+00:00") == 1_796_323_201)
        #expect(ISO8601Time.seconds("2024-02-29T23:59:59.5-05:30") == 1_709_270_999)
        #expect(ISO8601Time.seconds("1999-12-31T01:02:03+09:00") == 946_569_723)
        for broken in ["", "2026-12-03", "2026-13-03T18:40:01Z", "2026-12-03T18:40:01", "2026-12-03T18:40:01+0", "yesterday at noon, more or less"] {
            #expect(ISO8601Time.seconds(broken) == nil, "\(broken)")
        }
    }

    static func record(_ time: Int64, _ verdict: String, label: String = "Apple___Apple_scab") -> String {
        let stamp = WallClock.utcISO8601(nanoseconds: time * 1_000_000_000)
        return #"{"frame": 1, "time": "\#(stamp)", "verdict": "\#(verdict)", "top": [{"index": 0, "label": "\#(label)", "score": 0.9}], "age_ms": 1}"#
    }

    @Test func readingsAreCountedIntoTheirHoursAndWindows() {
        // 12:30 UTC: the day's last bucket is 12:00-13:00, the week's 12:00-18:00.
        let now: Int64 = 1_796_300_000 - 1_796_300_000 % 86_400 + 12 * 3600 + 1800
        let lines = [
            Self.record(now - 60, "diagnosis"),
            Self.record(now - 90, "diagnosis", label: "Tomato___Late_blight"),
            Self.record(now - 120, "diagnosis"),
            Self.record(now - 3 * 3600, "uncertain"),
            Self.record(now - 2 * 86_400, "no-leaf"),
            Self.record(now - 8 * 86_400, "diagnosis", label: "Grape___Black_rot"),
            #"{"summary": {"frames_read": 4}}"#,
            #"{"frame": 9, "time": "2026-12-0"#,
        ]
        let summary = ReadingHistory.summarise(tail: (Array(lines.joined(separator: "\n").utf8), false), now: now)
        #expect(summary.day.verdicts == [.diagnosis: 3, .uncertain: 1])
        #expect(summary.week.verdicts == [.diagnosis: 3, .uncertain: 1, .noLeaf: 1])
        #expect(summary.day.buckets.count == 24 && summary.week.buckets.count == 28)
        #expect(summary.day.buckets[23] == [.diagnosis: 3])
        #expect(summary.day.buckets[20] == [.uncertain: 1])
        #expect(summary.week.buckets[27] == [.diagnosis: 3])
        #expect(summary.week.buckets[26] == [.uncertain: 1])
        #expect(summary.week.buckets[27 - 8] == [.noLeaf: 1])
        #expect(summary.unreadableLines == 2)
        #expect(summary.earliest == now - 8 * 86_400)
        let diagnosed = HistoryPage.mostDiagnosed(summary.day)
        #expect(diagnosed.map(\.label) == ["Apple___Apple_scab", "Tomato___Late_blight"])
        #expect(diagnosed.map(\.count) == [2, 1])
        let json = HistoryPage.json(summary)
        #expect(json.hasPrefix(#"{"day": {"from": ""#))
        #expect(json.contains(#""verdicts": {"diagnosis": 3, "uncertain": 1, "no-leaf": 1, "no-picture": 0}"#))
        #expect(json.hasSuffix(#""log_truncated": false, "unreadable_lines": 2}"#))
    }
}
