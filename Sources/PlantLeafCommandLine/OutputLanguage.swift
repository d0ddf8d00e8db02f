import Glibc
import PlantLeafCore

/// The language of the command line's words for people, as POSIX locales choose one: --lang,
/// else the first of LC_ALL, LC_MESSAGES and LANG that is set and not empty, when there is a
/// catalogue for its language ("ar_EG.UTF-8" reads Arabic); English otherwise ("C", "POSIX").
/// A language other than English needs a locale whose character set is UTF-8, or none named
/// (C, POSIX, nothing set, as services run): under "ar_EG.ISO-8859-6" a terminal would show
/// UTF-8 Arabic as garbage, so the words are English there, whatever --lang says.
///
/// Right-to-left text goes to the terminal in logical order, as stored, with no reordering or
/// shaping here: terminals that do bidirectional layout (GNOME Terminal, Konsole, mlterm, the
/// Windows Terminal) show it right, and text piped to a file or another program stays the text
/// itself, which a reordered copy would not be. A terminal without bidi support shows the
/// letters left to right; the numbers and the class's percentage are unaffected either way.
enum OutputLanguage {
    static func catalogue(option: Catalogue?) -> Catalogue {
        let chosen = option ?? localeCatalogue()
        guard chosen.language != Catalogue.english.language, let characterSet = characterSet(),
              !isUTF8(characterSet) else { return chosen }
        return .english
    }

    private static func localeCatalogue() -> Catalogue {
        guard let value = variable(among: ["LC_ALL", "LC_MESSAGES", "LANG"]) else { return .english }
        return Catalogue.matching(locale: value) ?? .english
    }

    /// The character set of the locale that governs characters (LC_ALL, LC_CTYPE, LANG): the C
    /// library's word for it when that locale is installed, else what its name says after the
    /// dot ("ar_EG.ISO-8859-6"); nil for C and POSIX, and a name that says none.
    static func characterSet() -> String? {
        guard let name = variable(among: ["LC_ALL", "LC_CTYPE", "LANG"]), name != "C", name != "POSIX" else { return nil }
        if let locale = newlocale(1 << LC_CTYPE, name, nil) {
            defer { freelocale(locale) }
            if let codeset = nl_langinfo_l(nl_item(CODESET), locale) { return String(cString: codeset) }
        }
        guard let dot = name.firstIndex(of: ".") else { return nil }
        let codeset = name[name.index(after: dot)...].prefix { $0 != "@" }
        return codeset.isEmpty ? nil : String(codeset)
    }

    /// "UTF-8", "utf8", "UTF8": the spellings locales use.
    static func isUTF8(_ characterSet: String) -> Bool {
        characterSet.lowercased().filter { $0 != "-" && $0 != "_" } == "utf8"
    }

    private static func variable(among names: [String]) -> String? {
        names.lazy.compactMap { getenv($0).map { String(cString: $0) } }.first { !$0.isEmpty }
    }
}
