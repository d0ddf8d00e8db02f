import PlantLeafCore
import PlantLeafJournal
@testable import PlantLeafServe
import Testing

/// The history page's reading of the --log file: camera times, windows and buckets.
@Suite struct ReadingHistoryTests {
    /// A camera record at `time` (seconds since the epoch), as the camera writes it in its --log.
    static func record(_ time: Int64, _ verdict: Verdict, label: String = "Apple___Apple_scab") -> String {
        ReadingRecord(frame: 1, time: stamp(time), verdict: verdict, top: [ScoredClass(index: 0, label: label, score: 0.9)],
                      ageMilliseconds: 1, timings: ReadingRecord.Timings(prepare: 1, invoke: 2)).json
    }

    static func stamp(_ time: Int64) -> String { WallClock.utcISO8601(nanoseconds: time * 1_000_000_000) }

    /// 12:30 UTC: the day's last bucket is 12:00-13:00, the week's 12:00-18:00.
    static let now: Int64 = 1_796_300_000 - 1_796_300_000 % 86_400 + 12 * 3600 + 1800

    static func summarise(_ lines: [String]) -> ReadingHistory.Summary {
        ReadingHistory.summarise(tail: (Array(lines.joined(separator: "\n").utf8), false), now: now)
    }

    @Test func readingsAreCountedIntoTheirHoursAndWindows() {
        let now = Self.now
        let lines = [
            Self.record(now - 60, .diagnosis),
            Self.record(now - 90, .diagnosis, label: "Tomato___Late_blight"),
            // A line of schema 1, as logs written before "timing_ms" hold them.
            #"{"frame": 1, "time": "\#(Self.stamp(now - 120))", "verdict": "diagnosis", "top": [{"index": 0, "label": "Apple___Apple_scab", "score": 0.9}], "#
                + #""age_ms": 1, "prepare_ms": 1, "invoke_ms": 2, "capture_fps": 30, "inference_fps": 10, "dropped": 0}"#,
            Self.record(now - 3 * 3600, .uncertain),
            Self.record(now - 2 * 86_400, .noLeaf),
            Self.record(now - 8 * 86_400, .diagnosis, label: "Grape___Black_rot"),
            // A run's summary is no reading, and no damage either.
            #"{"summary": {"time": "\#(Self.stamp(now - 50))", "captured": 4, "classified": 3, "verdicts": {"diagnosis": 3}}}"#,
            #"{"schema": 2, "frame": 9, "time": "2026-12-0"#,
        ]
        let summary = Self.summarise(lines)
        #expect(summary.day.verdicts == [.diagnosis: 3, .uncertain: 1])
        #expect(summary.week.verdicts == [.diagnosis: 3, .uncertain: 1, .noLeaf: 1])
        #expect(summary.day.buckets.count == 24 && summary.week.buckets.count == 28)
        #expect(summary.day.buckets[23] == [.diagnosis: 3])
        #expect(summary.day.buckets[20] == [.uncertain: 1])
        #expect(summary.week.buckets[27] == [.diagnosis: 3])
        #expect(summary.week.buckets[26] == [.uncertain: 1])
        #expect(summary.week.buckets[27 - 8] == [.noLeaf: 1])
        #expect(summary.unreadableLines == 1)
        #expect(summary.earliest == now - 8 * 86_400)
        let diagnosed = HistoryPage.mostDiagnosed(summary.day)
        #expect(diagnosed.map(\.label) == ["Apple___Apple_scab", "Tomato___Late_blight"])
        #expect(diagnosed.map(\.count) == [2, 1])
        let json = HistoryPage.json(summary)
        #expect(json.hasPrefix(#"{"day": {"from": ""#))
        #expect(json.contains(#""verdicts": {"diagnosis": 3, "uncertain": 1, "no-leaf": 1, "no-picture": 0}"#))
        #expect(json.hasSuffix(#""log_truncated": false, "unreadable_lines": 1}"#))
    }

    /// Lines the record decoder does not read are counted, and nothing of them is counted as a
    /// reading; the page says how many there were.
    @Test func damagedLinesAreCountedNeverGuessedAt() {
        let now = Self.now
        let whole = Self.record(now - 60, .diagnosis)
        let damaged = [
            String(whole.prefix(whole.count / 2)),
            whole.replacing(#""verdict": "diagnosis""#, with: #""verdict": "diagnosed""#),
            whole.replacing(#""schema": 2, "#, with: #""schema": 2, "verdict": "no-leaf", "#),
            whole.replacing(#", "timing_ms": {"prepare": 1, "invoke": 2}"#, with: ""),
            whole.replacing(Self.stamp(now - 60), with: "yesterday"),
            // A classify line has no time to count it at.
            ReadingRecord(ClassificationOutputTests.result, path: PathName("leaf.jpg")).json,
            whole.replacing(#""top": ["#, with: #""top": [1, "#),
            "[" + whole + "]",
            "\u{FFFD}garbage",
        ]
        var bytes = Array((damaged + [whole]).joined(separator: "\n").utf8)
        bytes += [0x0A, 0xFF, 0xFE, 0x0A] + Array(whole.utf8) + [0x0A]
        let summary = ReadingHistory.summarise(tail: (bytes, false), now: now)
        #expect(summary.unreadableLines == damaged.count + 1)
        #expect(summary.day.verdicts == [.diagnosis: 2])
        #expect(HistoryPage.json(summary).hasSuffix(#""unreadable_lines": \#(damaged.count + 1)}"#))
        let page = String(decoding: HistoryPage.page(summary, problem: nil, now: .now(), catalogue: .english).body, as: UTF8.self)
        #expect(page.contains("<p class=\"hint\">Lines of the log that are not readings (cut short or damaged), not counted: \(damaged.count + 1).</p>"))
        let clean = String(decoding: HistoryPage.page(Self.summarise([whole]), problem: nil, now: .now(), catalogue: .english).body, as: UTF8.self)
        #expect(!clean.contains("not counted"))
    }

    /// A label is read whole, whatever it holds; the page escapes it.
    @Test func aLabelWithAQuoteSurvives() {
        let label = #"Tomato "Brandywine" \ heirloom___Early_blight"#
        let summary = Self.summarise([Self.record(Self.now - 60, .diagnosis, label: label)])
        #expect(summary.unreadableLines == 0)
        #expect(HistoryPage.mostDiagnosed(summary.day).map(\.label) == [label])
        #expect(HistoryPage.json(summary).contains(#"{"label": "Tomato \"Brandywine\" \\ heirloom___Early_blight", "count": 1}"#))
        let page = String(decoding: HistoryPage.page(summary, problem: nil, now: .now(), catalogue: .english).body, as: UTF8.self)
        #expect(page.contains("<li>" + HTMLText.escaped(Labels.displayName(label)) + ": 1</li>"))
        #expect(page.contains("&quot;Brandywine&quot;"))
    }
}
