import PlantLeafCore
import PlantLeafJournal
import Testing

/// The journal page's dates and durations in the page's language, its digits the Western ones.
@Suite struct TimeTextTests {
    static let time = JournalTime(iso8601: "2026-12-02T06:40:00+01:00")

    @Test func englishReadsAsItDid() throws {
        let time = try #require(Self.time)
        #expect(TimeText.readable(time) == "Wed 2 Dec 06:40")
        #expect(TimeText.duration(3 * 3_600_000 + 5 * 60_000) == "3 h 5 min")
        #expect(TimeText.duration(2 * 86_400_000 + 13 * 3_600_000) == "2 d 13 h")
        #expect(TimeText.duration(7 * 60_000) == "7 min")
        #expect(TimeText.duration(40_000) == "40 s")
    }

    @Test func arabicNamesTheDayMonthAndUnits() throws {
        let time = try #require(Self.time), arabic = try #require(Catalogue(language: "ar"))
        #expect(TimeText.readable(time, in: arabic) == "الأربعاء 2 ديسمبر 06:40")
        #expect(TimeText.duration(3 * 3_600_000 + 5 * 60_000, in: arabic) == "3 ساعات و5 دقائق")
        #expect(TimeText.duration(2 * 86_400_000 + 13 * 3_600_000, in: arabic) == "يومان و13 ساعة")
        #expect(TimeText.duration(7 * 60_000, in: arabic) == "7 دقائق")
        #expect(TimeText.duration(40_000, in: arabic) == "40 ثانية")
        #expect(TimeText.duration(2 * 3_600_000 + 60_000, in: arabic) == "ساعتان ودقيقة واحدة")
        #expect(TimeText.duration(11 * 60_000, in: arabic) == "11 دقيقة")
        #expect(TimeText.duration(3 * 86_400_000 + 3_600_000, in: arabic) == "3 أيام وساعة واحدة")
        // Every day of a week and every month has its Arabic name: no English one is left.
        for day in 0..<7 {
            let text = TimeText.day(JournalTime(milliseconds: Int64(day) * 86_400_000, offsetMinutes: 0), in: arabic)
            #expect(text.allSatisfy { !$0.isASCII || $0.isNumber || $0 == " " }, "\(text)")
        }
        for month in 0..<12 {
            let text = TimeText.day(JournalTime(milliseconds: Int64(month) * 31 * 86_400_000, offsetMinutes: 0), in: arabic)
            #expect(text.allSatisfy { !$0.isASCII || $0.isNumber || $0 == " " }, "\(text)")
        }
    }

    /// CLDR's cardinal rules (plurals.xml) at the numbers its own examples give for each form.
    @Test func pluralFormsFollowCLDR() {
        let arabic: [(PluralCategory, [Int])] = [(.zero, [0]), (.one, [1]), (.two, [2]), (.few, [3, 10, 103, 110, 1003]),
                                                  (.many, [11, 26, 99, 111, 1011]), (.other, [100, 101, 102, 200, 1000])]
        for (category, numbers) in arabic {
            #expect(numbers.map { PluralCategory.of($0, language: "ar") } == Array(repeating: category, count: numbers.count), "\(category)")
        }
        #expect([0, 1, 2, 5, 21].map { PluralCategory.of($0, language: "en") } == [.other, .one, .other, .other, .other])
        #expect(PluralCategory.of(1, language: "xx") == .other)
    }
}
