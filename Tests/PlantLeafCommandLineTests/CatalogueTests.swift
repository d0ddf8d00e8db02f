import PlantLeafCore
import PlantLeafMQTT
import PlantLeafSupport
@testable import PlantLeafServe
import PlantLeafTestSupport
import Testing

/// The text catalogue: one file a language under Sources/PlantLeafCore/Embedded/Locales, built in.
@Suite struct CatalogueTests {
    static let english = Catalogue.english
    static let arabic = Catalogue(language: "ar")

    @Test func everyLanguageFileIsAFlatObjectOfStrings() {
        #expect(Catalogue.languages == ["ar", "en"])
        for (language, text) in Catalogue.files {
            do {
                _ = try Catalogue.flatStrings(Array(text.utf8))
            } catch {
                Issue.record("\(language).json: \(error)")
            }
        }
    }

    /// A language lacking a key English has would show English there; one with a key English no
    /// longer has carries a text nothing shows. Either is a file to bring up to date.
    /// A counted noun (`count.NOUN.FORM`) has, in each language, exactly the forms that
    /// language's plural rule names.
    @Test func everyLanguageHasExactlyEnglishsKeys() throws {
        func split(_ keys: Set<String>) -> (words: Set<String>, nouns: [String: Set<String>]) {
            var words = Set<String>(), nouns: [String: Set<String>] = [:]
            for key in keys {
                let parts = key.split(separator: ".")
                if parts.count == 3 && parts[0] == "count" { nouns[String(parts[1]), default: []].insert(String(parts[2])) } else { words.insert(key) }
            }
            return (words, nouns)
        }
        let english = split(Self.english.ownKeys)
        #expect(english.words.count > 100 && english.nouns.count >= 4)
        for language in Catalogue.languages {
            let keys = split(try #require(Catalogue(language: language)).ownKeys)
            #expect(english.words.subtracting(keys.words).sorted() == [], "missing from \(language).json")
            #expect(keys.words.subtracting(english.words).sorted() == [], "in \(language).json but not in en.json")
            #expect(Set(keys.nouns.keys) == Set(english.nouns.keys), "counted nouns of \(language).json")
            let forms = Set(PluralCategory.categories(language: language).map(\.rawValue))
            for (noun, found) in keys.nouns { #expect(found == forms, "count.\(noun) in \(language).json") }
        }
    }

    @Test func everyClassOfTheLabelsFileHasANameInEveryLanguage() throws {
        let labels = try Labels.load(path: TestPaths.labels)
        #expect(labels.count == 38)
        for language in Catalogue.languages {
            let keys = try #require(Catalogue(language: language)).ownKeys
            let unnamed = labels.names.filter { !keys.contains("class." + $0) }
            #expect(unnamed == [], "\(language) has no name for these")
        }
        let arabic = try #require(Self.arabic)
        #expect(arabic.className("Tomato___Late_blight") == "طماطم — اللفحة المتأخرة")
        #expect(arabic.className("Potato___Early_blight") == "بطاطس — اللفحة المبكرة")
        #expect(arabic.className("Squash___Powdery_mildew") == "كوسة — البياض الدقيقي")
        #expect(arabic.className("Tomato___Leaf_Mold") == "طماطم — عفن الأوراق")
        #expect(arabic.className("Tomato___healthy") == "طماطم — سليم")
        // English keeps the names the label's own reading gave before there was a catalogue.
        #expect(labels.names.allSatisfy { Self.english.className($0) == Labels.displayName($0) })
    }

    /// Every verdict and reason, and every key the pages name, has its English text.
    @Test func everyKeyTheProgramUsesIsInEnglish() {
        let keys = Self.english.ownKeys
        var used = Verdict.allCases.flatMap { verdict in ["line", "heading", "name"].map { "verdict." + verdict.rawValue + "." + $0 } }
        used += VerdictReason.allCases.map { "reason." + $0.rawValue }
        used += VerdictReason.allCases.map { "reason-words." + $0.rawValue }
        used += ["language.name", "language.direction", "advice.other-class"]
        used += AdviceAudience.allCases.flatMap { ["advice.healthy." + $0.rawValue, "advice.disease." + $0.rawValue] }
        for page in PageTemplate.serve.fileNames where page.hasSuffix(".html") { used += PageTemplate.serve.keys(in: page) }
        #expect(used.filter { !keys.contains($0) } == [])
    }

    /// Advice fits the result and who reads it: no treatment for a healthy leaf; for each
    /// disease of the model, the signs to check and where they come from, in every language; a
    /// fixed camera is never told to photograph a leaf.
    @Test func adviceFitsTheResultAndWhoReadsIt() throws {
        let labels = try Labels.load(path: TestPaths.labels)
        let arabic = try #require(Self.arabic)
        for catalogue in [Self.english, arabic] {
            for label in labels.names {
                let isDisease = Labels.isProblem(verdict: .diagnosis, label: label)
                #expect((catalogue.signs(of: label) != nil) == isDisease, "\(catalogue) \(label)")
                #expect(catalogue.ownKeys.contains("source." + label) == isDisease, "\(catalogue) \(label)")
                for audience in AdviceAudience.allCases {
                    let advice = catalogue.diagnosisAdvice(label, for: audience)
                    if isDisease {
                        #expect(advice.contains(catalogue.signs(of: label) ?? "-") && advice.contains(catalogue["source." + label]), "\(catalogue) \(label)")
                    } else {
                        #expect(advice == catalogue["advice.healthy." + audience.rawValue])
                    }
                }
            }
        }
        #expect(Self.english.diagnosisAdvice("Tomato___healthy", for: .photo)
                == "No sign of disease on this leaf: no treatment is needed. Look at the plant again in a few days.")
        #expect(Self.english.diagnosisAdvice("Tomato___Late_blight", for: .camera).hasPrefix("Go to the plant under the camera to confirm it. Look for large, irregular"))
        #expect(Self.english.diagnosisAdvice("Rose___Black_spot", for: .photo).hasPrefix("This is the most likely answer. Compare the leaf with pictures of this class"))
        for reason in VerdictReason.allCases {
            #expect(!Self.english.advice(reason, for: .camera).contains("Photograph"), "\(reason)")
        }
        #expect(Self.english.advice(.noGreen, for: .photo) == Self.english.advice(.noGreen))
        #expect(!Self.english.advice(.notClearlyLeaf).contains("not be a leaf photo"))
    }

    /// The words a grower reads on the pages name no option, command or unit abbreviation: those
    /// are for the docs and the command line (the lines on stderr are not checked here).
    @Test func theGrowersWordsHaveNoCodeWords() throws {
        let growersPrefixes = ["page.", "journal.", "history.", "verdict.", "reason.", "reason-words.", "advice.", "signs.", "source."]
        for language in Catalogue.languages {
            let catalogue = try #require(Catalogue(language: language))
            for key in catalogue.ownKeys.sorted() where growersPrefixes.contains(where: key.hasPrefix) && !key.hasPrefix("journal.notice.") {
                let text = catalogue[key]
                #expect(!text.contains("--") && !text.contains("plantleaf ") && !text.contains(" ms"), "\(language) \(key): \(text)")
            }
        }
    }

    @Test func aMissingKeyReadsAsEnglish() {
        let partial = Catalogue(code: "xx", texts: ["page.hint": "xx hint"])
        #expect(partial["page.hint"] == "xx hint")
        #expect(partial["page.photo-button"] == "Take or choose a photo")
        #expect(partial.advice(.dark) == Self.english.advice(.dark))
        #expect(partial.className("Tomato___Late_blight") == "Tomato — Late blight")
        // A label no catalogue knows is read as the label says.
        #expect(partial.className("Rose___Black_spot") == "Rose — Black spot")
    }

    @Test func theLanguageComesFromLocalesAndAcceptLanguage() {
        #expect(Catalogue.matching(locale: "ar_EG.UTF-8")?.language == "ar")
        #expect(Catalogue.matching(locale: "en_GB.UTF-8")?.language == "en")
        #expect(Catalogue.matching(locale: "C") == nil)
        #expect(Catalogue.matching(locale: "fr_FR.UTF-8") == nil)
        #expect(Catalogue.preferred(acceptLanguage: "ar-EG,ar;q=0.9,en-US;q=0.8,en;q=0.7").language == "ar")
        #expect(Catalogue.preferred(acceptLanguage: "fr-FR,fr;q=0.9,ar;q=0.5,en;q=0.4").language == "ar")
        #expect(Catalogue.preferred(acceptLanguage: "en;q=0.9,ar;q=0.2").language == "en")
        #expect(Catalogue.preferred(acceptLanguage: "fr, de").language == "en")
        #expect(Catalogue.preferred(acceptLanguage: "").language == "en")
    }

    /// Every page in every language: no field left unfilled, the language and direction on
    /// <html>, and the script's texts in a data block no text can end.
    @Test func thePagesAreFilledInInEachLanguage() throws {
        let arabic = try #require(Self.arabic)
        for catalogue in [Self.english, arabic] {
            let pages = [WebAssets.page(catalogue), WebAssets.livePage(catalogue, cameraName: "Greenhouse 1"), WebAssets.signInPage(wrongToken: true, catalogue: catalogue)]
            for page in pages.map({ String(decoding: $0.body, as: UTF8.self) }) {
                #expect(!page.contains("{{") && !page.contains("}}"))
                let direction = catalogue.isRightToLeft ? "rtl" : "ltr"
                #expect(page.contains("<html lang=\"\(catalogue.language)\" dir=\"\(direction)\">"))
            }
            #expect(!WebAssets.scriptTexts(catalogue).contains("</"))
        }
        let page = String(decoding: WebAssets.page(arabic).body, as: UTF8.self)
        #expect(page.contains("<label class=\"button\" for=\"photo\">التقط صورة أو اخترها</label>"))
        #expect(page.contains("<a href=\"/language/en\" lang=\"en\" hreflang=\"en\" dir=\"ltr\">English</a>"))
        #expect(page.contains("\"verdict.no-leaf.heading\": \"لا توجد ورقة في الصورة\""))
    }

    /// Home Assistant's names follow the language; the ids, topics and states do not, as
    /// automations compare them.
    @Test func discoveryInArabicKeepsTheEnglishStates() throws {
        let arabic = try #require(Self.arabic)
        let settings = try MQTTSettings(url: "mqtt://broker/greenhouse")
        let english = HomeAssistantDiscovery(settings: settings, softwareVersion: "1.0")
        let translated = HomeAssistantDiscovery(settings: settings, softwareVersion: "1.0", catalogue: arabic)
        #expect(english.messages.map(\.topic) == translated.messages.map(\.topic))
        let names = translated.messages.compactMap { jsonObject($0.payload)?["name"] as? String }
        #expect(names == ["القراءة", "أعلى درجة", "آخر قراءة", "مشكلة", "الصورة", "القراءة بالكلمات"])
        for (plain, arabicMessage) in zip(english.messages, translated.messages) {
            var first = try #require(jsonObject(plain.payload)), second = try #require(jsonObject(arabicMessage.payload))
            first["name"] = nil; second["name"] = nil
            first["device"] = nil; second["device"] = nil
            #expect(first.keys.sorted() == second.keys.sorted())
            #expect(first.map { "\($0.key)=\($0.value)" }.sorted() == second.map { "\($0.key)=\($0.value)" }.sorted())
        }
        let sick = MQTTReading(record: ReadingRecord(time: "t", verdict: .diagnosis, top: [ScoredClass(index: 30, label: "Tomato___Late_blight", score: 0.8)],
                                                     timings: .init(prepare: 1, invoke: 1)))
        #expect(sick.state == "Tomato — Late blight")
        #expect(jsonObject(sick.attributes(in: arabic))?["display"] as? String == "طماطم — اللفحة المتأخرة")
        let cat = MQTTReading(record: ReadingRecord(time: "t", verdict: .noLeaf, reason: .unlikeLeaves,
                                                    top: [ScoredClass(index: 30, label: "Tomato___Late_blight", score: 0.8)],
                                                    timings: .init(prepare: 1, invoke: 1)))
        #expect(cat.state == "no leaf")
        let attributes = try #require(jsonObject(cat.attributes(in: arabic)))
        #expect(attributes["display"] as? String == "لا توجد ورقة في الصورة")
        #expect(attributes["verdict"] as? String == "no-leaf" && attributes["reason"] as? String == "unlike-leaves")
    }
}
