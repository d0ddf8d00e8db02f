import PlantLeafSupport

/// The words PlantLeaf shows people, in one language: the pages, the verdicts' headings and
/// advice, the class names, the command line's text. Each language is one file,
/// `Embedded/Locales/CODE.json` (a flat object of key and text, the text's `{name}` filled in by
/// `text(_:_:)`), built into the binary; adding a language is adding a file. A key the language
/// lacks reads as the English text, so a late translation shows English rather than nothing.
/// Machine words (JSON keys, CSV columns, verdict and reason slugs, MQTT states) are never here.
public struct Catalogue: Sendable, Equatable, CustomStringConvertible {
    /// The language's code, the file's name: "en", "ar".
    public let language: String
    private let texts: [String: String]

    /// The languages there are files for, sorted.
    public static let languages: [String] = tables.keys.sorted()

    public static let english = Catalogue(language: "en") ?? Catalogue(code: "en", texts: [:])

    /// The catalogue of `language` ("ar"); nil when there is no file for it.
    public init?(language: String) {
        guard let texts = Catalogue.tables[language] else { return nil }
        self.init(code: language, texts: texts)
    }

    /// A catalogue of these texts (the tests' language with keys missing).
    package init(code: String, texts: [String: String]) {
        language = code
        self.texts = texts
    }

    /// The text of `key`: this language's, else English's, else the key itself (which a test
    /// keeps from happening: every key used is in the English file).
    public subscript(key: String) -> String {
        texts[key] ?? Catalogue.tables["en"]?[key] ?? key
    }

    /// The text of `key` with each `{name}` replaced by `values[name]`, in one pass: a value that
    /// holds braces (a file named "{path}.png") is put in as it is, never filled in again.
    public func text(_ key: String, _ values: [String: String]) -> String {
        var result = ""
        var rest = self[key][...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}"), let value = values[String(rest[rest.index(after: open)..<close])] else {
                result.append("{")
                rest = rest[rest.index(after: open)...]
                continue
            }
            result += value
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// `n` and the noun `count.NOUN` in the form the language gives that count ("3 min",
    /// «3 دقائق», «دقيقتان»): the text of `count.NOUN.CATEGORY` with `{n}` filled in, else of
    /// `count.NOUN.other`.
    public func count(_ noun: String, _ n: Int) -> String {
        let category = PluralCategory.of(n, language: language)
        let key = "count." + noun + "." + category.rawValue
        return text(texts[key] != nil ? key : "count." + noun + ".other", ["n": number(n)])
    }

    /// "Catalogue(ar)": the language, not its every text.
    public var description: String { "Catalogue(\(language))" }

    /// Whether the language is written right to left (its file's "language.direction").
    public var isRightToLeft: Bool { self["language.direction"] == "rtl" }

    /// The language's name in itself ("العربية"), for a switch between languages.
    public var nativeName: String { self["language.name"] }

    /// The keys this language's own file has (none borrowed from English): what the tests compare.
    public var ownKeys: Set<String> { Set(texts.keys) }

    /// A class's name for people: the catalogue's ("Tomato — Late blight", "طماطم — اللفحة
    /// المتأخرة") for the labels it knows, otherwise `Labels.displayName`'s reading of the label.
    public func className(_ label: String) -> String {
        texts["class." + label] ?? Catalogue.tables["en"]?["class." + label] ?? Labels.displayName(label)
    }

    /// What a verdict means, as a heading a grower reads first ("No leaf found").
    public func heading(_ verdict: Verdict) -> String { self["verdict." + verdict.rawValue + ".heading"] }

    /// What to do about a result that is not a diagnosis, in plain words, for someone who sent
    /// a photo; `advice(_:for:)` words it for a fixed camera.
    public func advice(_ reason: VerdictReason) -> String { self["reason." + reason.rawValue] }

    /// What to do about a result that is not a diagnosis, for who is looking: a fixed camera
    /// cannot "photograph one leaf", so its words (`reason.camera.REASON`) say what to check
    /// at the camera instead, where they differ.
    public func advice(_ reason: VerdictReason, for audience: AdviceAudience) -> String {
        if audience == .camera, let camera = text(ofOwnOrEnglish: "reason.camera." + reason.rawValue) { return camera }
        return advice(reason)
    }

    /// What to do about a diagnosis of `label`: a healthy class needs no treatment; a disease
    /// the catalogue knows gets the signs to check on the plant (`signs.LABEL`), a general next
    /// step and where the signs come from (`source.LABEL`, listed in docs/advice.md); a class
    /// the catalogue has no signs for (another model's) is to be compared with pictures of it.
    public func diagnosisAdvice(_ label: String, for audience: AdviceAudience) -> String {
        if !Labels.isProblem(verdict: .diagnosis, label: label) { return self["advice.healthy." + audience.rawValue] }
        guard let signs = signs(of: label) else { return self["advice.other-class"] }
        return text("advice.disease." + audience.rawValue, ["signs": signs, "source": self["source." + label]])
    }

    /// The signs of the disease `label` to check on the plant, in plain words; nil for a class
    /// the catalogue has none for (a healthy one, another model's).
    public func signs(of label: String) -> String? { text(ofOwnOrEnglish: "signs." + label) }

    /// The text of `key` in this language or English; nil when neither has it.
    private func text(ofOwnOrEnglish key: String) -> String? { texts[key] ?? Catalogue.tables["en"]?[key] }

    /// The catalogue for a locale name as the environment gives it ("ar_EG.UTF-8", "ar-EG", "ar",
    /// "C"): its language part, when there is a file for that language.
    public static func matching(locale: String) -> Catalogue? {
        let language = locale.prefix { $0.isLetter }.lowercased()
        return language.isEmpty ? nil : Catalogue(language: language)
    }

    /// The language a browser asks for most (an Accept-Language header: "ar-EG,ar;q=0.9,en;q=0.8")
    /// among those there are files for; English when it asks for none of them.
    public static func preferred(acceptLanguage header: String) -> Catalogue {
        var best: (quality: Double, catalogue: Catalogue)?
        for item in header.split(separator: ",").prefix(32) {
            let parts = item.split(separator: ";")
            guard let tag = parts.first, let catalogue = matching(locale: tag.trimmingWhitespace()) else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.trimmingWhitespace()
                if pair.hasPrefix("q="), let value = Double(pair.dropFirst(2)) { quality = value }
            }
            if quality > 0, quality > (best?.quality ?? 0) { best = (quality, catalogue) }
        }
        return best?.catalogue ?? .english
    }

    /// Every language's texts, read from its embedded file once. A file that is not a flat
    /// object of strings is left out whole (the catalogue tests read each one and fail on it).
    private static let tables: [String: [String: String]] = files.compactMapValues { try? flatStrings(Array($0.utf8)) }

    /// A language file's texts by key.
    /// - Throws: `CatalogueError.notJSON`, or `.notFlat` when the file is not an object of strings.
    package static func flatStrings(_ bytes: [UInt8]) throws(CatalogueError) -> [String: String] {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            throw .notJSON(error)
        }
        guard case .object(let members) = value else { throw .notFlat(key: nil) }
        var texts: [String: String] = [:]
        for (key, value) in members {
            guard case .string(let text) = value else { throw .notFlat(key: key) }
            texts[key] = text
        }
        return texts
    }

    /// The text of each language's file as embedded, by language, for the tests to read.
    package static var files: [String: String] {
        var files: [String: String] = [:]
        for (name, text) in EmbeddedFiles.text where name.hasPrefix("Locales/") && name.hasSuffix(".json") {
            files[String(name.dropFirst("Locales/".count).dropLast(".json".count))] = text
        }
        return files
    }
}
