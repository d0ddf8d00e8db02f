import Foundation
import PlantLeafTestSupport
import Testing

/// classify in the grower's language: the text follows LC_ALL, LC_MESSAGES and LANG (or --lang);
/// JSON keeps every key and value but its words for people ("display", "advice").
@Suite struct ClassifyLanguageTests {
    static let leaf = ClassifyOutputTests.leaf
    static let cat = TestPaths.samples + "/imagenet/cat_720p.jpg"

    @Test func anArabicLocalePrintsArabicNamesAndAdvice() throws {
        let result = try runPlantLeaf(["classify", Self.leaf, Self.cat], environment: ["LC_ALL": "", "LC_MESSAGES": "", "LANG": "ar_EG.UTF-8"])
        #expect(result.status == 0)
        let lines = result.stdoutLines
        #expect(lines.count == 11, "\(lines)")
        #expect(lines[0] == Self.leaf)
        #expect(lines[1] == "  تشخيص: الصنف الأول هو الجواب")
        #expect(lines[2].hasSuffix("%  طماطم — اللفحة المبكرة"), "\(lines)")
        // The cat: no leaf, said and advised in Arabic; the numbers stay as they are.
        #expect(lines[5] == Self.cat)
        #expect(lines[6] == "  لا توجد ورقة في الصورة: ليس تشخيصاً")
        #expect(lines[7] == "  لا نرى ورقة نبات في الصورة. صوّر ورقة واحدة بحيث تملأ معظم الصورة.")
        #expect(lines[8].range(of: #"^ +\d{1,3}\.\d%  \S"#, options: .regularExpression) != nil, "\(lines[8])")
    }

    /// A locale whose character set is not UTF-8 cannot show Arabic as PlantLeaf writes it:
    /// classify and camera write English there, --lang ar too; a locale that names no character
    /// set (C, as services run) keeps --lang's language.
    @Test func aLocaleThatCannotShowTheLanguageReadsEnglish() throws {
        let cases: [(arguments: [String], environment: [String: String])] = [
            ([], ["LC_ALL": "ar_EG.ISO-8859-6"]),
            (["--lang", "ar"], ["LC_ALL": "ar_EG.ISO-8859-6"]),
            ([], ["LC_ALL": "", "LC_MESSAGES": "", "LC_CTYPE": "", "LANG": "ar_EG.ISO-8859-6"]),
            ([], ["LC_ALL": "", "LC_MESSAGES": "ar_EG.UTF-8", "LC_CTYPE": "ar_EG.ISO-8859-6", "LANG": ""]),
        ]
        for (arguments, environment) in cases {
            let result = try runPlantLeaf(["classify"] + arguments + [Self.leaf], environment: environment)
            #expect(result.status == 0)
            #expect(result.stdoutLines.dropFirst().first == "  Diagnosis: the top class is the answer", "\(environment): \(result.stdout)")
        }
        let camera = try runPlantLeaf(["camera", "--input", Self.leaf, "--lang", "ar", "--no-journal"], environment: ["LC_ALL": "ar_EG.ISO-8859-6"],
                                      timeLimit: 60)
        #expect(camera.status == 0)
        #expect(camera.stderrLines.last?.contains(" frames read, ") == true, "\(camera.stderr)")
        let posix = try runPlantLeaf(["classify", "--lang", "ar", Self.leaf], environment: ["LC_ALL": "C"])
        #expect(posix.stdoutLines.dropFirst().first == "  تشخيص: الصنف الأول هو الجواب", "\(posix.stdout)")
    }

    /// The same files in JSON, in Arabic and in English (LC_ALL=C over an Arabic LANG, as POSIX
    /// orders them): the same records but for "display", "advice" and the times each run took.
    @Test func jsonDiffersOnlyInItsWordsForPeople() throws {
        let arabic = try runPlantLeaf(["classify", "--format", "json", Self.leaf, Self.cat], environment: ["LC_ALL": "", "LANG": "ar_EG.UTF-8"])
        let english = try runPlantLeaf(["classify", "--format", "json", Self.leaf, Self.cat], environment: ["LC_ALL": "C", "LANG": "ar_EG.UTF-8"])
        #expect(arabic.status == 0 && english.status == 0)
        let arabicRecords = arabic.stdoutLines.compactMap(jsonObject), englishRecords = english.stdoutLines.compactMap(jsonObject)
        #expect(arabicRecords.count == 2 && englishRecords.count == 2)
        for (translated, plain) in zip(arabicRecords, englishRecords) {
            #expect(Self.machineFields(translated) == Self.machineFields(plain))
        }
        let displays = arabicRecords.map { (($0["top"] as? [[String: Any]])?.first?["display"] as? String) ?? "" }
        #expect(displays[0] == "طماطم — اللفحة المبكرة")
        #expect((englishRecords[0]["top"] as? [[String: Any]])?.first?["display"] as? String == "Tomato — Early blight")
        #expect(arabicRecords[1]["verdict"] as? String == "no-leaf")
        #expect(arabicRecords[1]["advice"] as? String == "لا نرى ورقة نبات في الصورة. صوّر ورقة واحدة بحيث تملأ معظم الصورة.")
        #expect(englishRecords[1]["advice"] as? String == "No leaf found in the picture. Photograph one leaf so that it fills most of the picture.")
    }

    /// A file that is no image and one that is not there: their lines and the count in Arabic,
    /// their JSON "error" in English (a machine field), the exit code as in any language.
    @Test func aBadFileIsSaidInArabicAndRecordedInEnglish() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        try "this is not a photo".write(toFile: folder + "/notes.jpg", atomically: true, encoding: .utf8)
        let result = try runPlantLeaf(["classify", "--format", "json", folder + "/notes.jpg", folder + "/missing.jpg"],
                                      environment: ["LC_ALL": "", "LANG": "ar_EG.UTF-8"])
        #expect(result.status == 1)
        #expect(result.stderrLines == ["plantleaf classify: \(folder)/notes.jpg: ليس صورة JPEG أو PNG: هذا الملف نص",
                                       "plantleaf classify: \(folder)/missing.jpg: لا يوجد ملف أو مجلد بهذا الاسم",
                                       "plantleaf classify: تعذّر تصنيف 2 من 2 من المدخلات"])
        let errors = result.stdoutLines.compactMap(jsonObject).map { $0["error"] as? String }
        #expect(errors == ["not a JPEG or PNG photo: this file is text", "no such file or directory"])
    }

    /// A set-up error and its remedy, one Arabic line; the path, the make target and the option as typed.
    @Test func aMissingModelIsSaidInArabicWithItsRemedy() throws {
        let result = try runPlantLeaf(["classify", "--model", "/nonexistent/plant.tflite", Self.leaf], environment: ["LC_ALL": "", "LANG": "ar_EG.UTF-8"])
        #expect(result.status == 2)
        #expect(result.stderrLines == ["plantleaf classify: لم يُعثر على النموذج: /nonexistent/plant.tflite "
            + "(شغّل `make setup` لربط النموذج الافتراضي، أو اذكر النموذج بالخيار --model)"])
        #expect(result.stdout.isEmpty)
    }

    /// A record re-encoded with sorted keys, its "display" and "advice" and its times' values left out.
    static func machineFields(_ record: [String: Any]) -> String {
        var record = record
        record["advice"] = nil
        record["timing_ms"] = (record["timing_ms"] as? [String: Any])?.keys.sorted()
        record["top"] = (record["top"] as? [[String: Any]])?.map { entry in entry.filter { $0.key != "display" } }
        let data = (try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
