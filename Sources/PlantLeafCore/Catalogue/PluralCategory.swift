/// The forms a language gives a noun after a count, as Unicode's CLDR names them: English says
/// "1 minute", "2 minutes"; Arabic has six forms («دقيقة واحدة», «دقيقتان», «3 دقائق», «11 دقيقة» …).
/// A catalogue's counted noun has one key a form its language uses: `count.NOUN.CATEGORY`.
public enum PluralCategory: String, CaseIterable, Sendable {
    case zero, one, two, few, many, other

    /// The forms `language` uses: the categories of its CLDR rule, `other` alone for a language
    /// without one here (every count then reads the same).
    public static func categories(language: String) -> [PluralCategory] {
        switch language {
        case "en": [.one, .other]
        case "ar": [.zero, .one, .two, .few, .many, .other]
        default: [.other]
        }
    }

    /// The form `language` gives a whole count `n`, by CLDR's cardinal rules (plurals.xml):
    /// English one: n = 1; Arabic zero: n = 0, one: n = 1, two: n = 2, few: n % 100 = 3..10,
    /// many: n % 100 = 11..99. Adding a language adds its rule here beside its file.
    public static func of(_ n: Int, language: String) -> PluralCategory {
        let magnitude = n.magnitude
        switch language {
        case "en":
            return magnitude == 1 ? .one : .other
        case "ar":
            switch (magnitude, magnitude % 100) {
            case (0, _): return .zero
            case (1, _): return .one
            case (2, _): return .two
            case (_, 3...10): return .few
            case (_, 11...99): return .many
            default: return .other
            }
        default:
            return .other
        }
    }
}
