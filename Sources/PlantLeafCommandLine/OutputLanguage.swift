import Glibc
import PlantLeafCore

/// The language of the command line's words for people, as POSIX locales choose one: --lang,
/// else the first of LC_ALL, LC_MESSAGES and LANG that is set and not empty, when there is a
/// catalogue for its language ("ar_EG.UTF-8" reads Arabic); English otherwise ("C", "POSIX").
///
/// Right-to-left text goes to the terminal in logical order, as stored, with no reordering or
/// shaping here: terminals that do bidirectional layout (GNOME Terminal, Konsole, mlterm, the
/// Windows Terminal) show it right, and text piped to a file or another program stays the text
/// itself, which a reordered copy would not be. A terminal without bidi support shows the
/// letters left to right; the numbers and the class's percentage are unaffected either way.
enum OutputLanguage {
    static func catalogue(option: Catalogue?) -> Catalogue {
        if let option { return option }
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty else { continue }
            return Catalogue.matching(locale: value) ?? .english
        }
        return .english
    }
}
