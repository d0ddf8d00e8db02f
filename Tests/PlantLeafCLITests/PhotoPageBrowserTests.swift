import Foundation
import PlantLeafCore
import PlantLeafTestSupport
import Testing

/// The photo page after an upload, for every verdict, and the sign-in page, in headless Chromium
/// at a phone's size (390 × 844) in English and Arabic, driven by Browser/photo_page.py: nothing
/// wider than the screen, no word broken across lines, no English word on the Arabic page outside
/// numbers and names, nothing in the console; a healthy leaf gets no treatment, a disease its two
/// reference pictures (loaded) with their credit. Screenshots in .build/test-output/photo-page:
/// `NAME-LANG.png` the screen, `NAME-LANG-answer.png` the answer without any photo (the leaf picked,
/// the sample leaves beside a disease), which docs/images keeps.
@Suite struct PhotoPageBrowserTests {
    static let outputFolder = TestPaths.root + "/.build/test-output/photo-page"
    static let script = TestPaths.root + "/Tests/PlantLeafCLITests/Browser/photo_page.py"
    static let lateBlightLeaf = TestPaths.plantVillage + "/Tomato___Late_blight/0003faa8-4b27-4c65-bf42-6d9e352ca1a5___RS_Late.B 4946.JPG"

    /// photo_page.py's report of the page at `url` in `language` (after picking `photo`, if
    /// given), its screenshots named after `name`; or the one line saying what is not installed.
    static func read(_ url: String, language: String, photo: String?, name: String) throws -> [String: Any] {
        let folder = TestPaths.temporaryDirectory("photopage")
        defer { TestPaths.removeTemporaryDirectory(folder) }
        try FileManager.default.createDirectory(atPath: outputFolder, withIntermediateDirectories: true)
        let screenshots = [outputFolder + "/\(name)-\(language).png", outputFolder + "/\(name)-\(language)-answer.png"]
        for screenshot in screenshots { try? FileManager.default.removeItem(atPath: screenshot) }
        let environment = ["HOME": folder, "TMPDIR": folder, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        let result = try runCommand("/usr/bin/python3", [script, "--lang", language] + (photo.map { ["--photo", $0] } ?? []) + [url] + screenshots,
                                    environment: environment, timeLimit: ServeBrowserTests.browserTimeLimit)
        if result.status == 3 { throw ServeBrowserTests.BrowserProblem(description: result.stderr.trimmingCharacters(in: .newlines)) }
        guard result.status == 0, let fields = jsonObject(result.stdout.trimmingCharacters(in: .newlines)) else {
            throw ServeBrowserTests.BrowserProblem(description: "photo_page.py failed (\(result.status)): \(result.stderr.suffix(3000))")
        }
        #expect(fields["screenshot_saved"] as? Bool == true && fields["shareable_saved"] as? Bool == true, "\(fields)")
        #expect(screenshots.allSatisfy(ServeBrowserTests.isPNG), "no PNG at \(screenshots)")
        return fields
    }

    /// What every page must be on a phone in `language`.
    static func expectReadable(_ page: [String: Any], _ language: String, _ name: String) {
        #expect(page["lang"] as? String == language && page["dir"] as? String == (language == "ar" ? "rtl" : "ltr"), "\(name): \(page)")
        #expect(page["viewport_width"] as? Int == 390 && page["page_width"] as? Int == 390, "\(name) \(language): \(page)")
        #expect(page["too_wide"] as? [String] == [], "\(name) \(language): \(page["too_wide"] ?? "")")
        #expect(page["broken_words"] as? [String] == [], "\(name) \(language): \(page["broken_words"] ?? "")")
        if language == "ar" { #expect(page["latin_words"] as? [String] == [], "\(name): \(page["latin_words"] ?? "")") }
        #expect((page["console"] as? [Any])?.isEmpty == true, "\(name) \(language): \(page["console"] ?? "")")
    }

    /// The upload of `photo` on a phone in each language: the verdict, its heading and advice in
    /// the catalogue's words, and (for a disease) the reference pictures; returns the pages read.
    static func upload(_ photo: String, name: String, verdict: Verdict, label: String? = nil, on server: TestServer) throws {
        for language in ["en", "ar"] {
            let catalogue = try #require(Catalogue(language: language))
            let page = try read("http://127.0.0.1:\(server.port)/", language: language, photo: photo, name: name)
            expectReadable(page, language, name)
            #expect(page["verdict"] as? String == verdict.rawValue, "\(name) \(language): \(page["heading"] ?? "")")
            if let label {
                #expect(page["heading"] as? String == catalogue.className(label), "\(name) \(language)")
                #expect(page["meaning"] as? String == catalogue.diagnosisAdvice(label, for: .photo), "\(name) \(language): \(page["meaning"] ?? "")")
            } else {
                #expect(page["heading"] as? String == catalogue.heading(verdict), "\(name) \(language)")
            }
            let aDisease = label.map { Labels.isProblem(verdict: .diagnosis, label: $0) } ?? false
            #expect(page["references"] as? [String] == (aDisease ? ["256x256", "256x256"] : []), "\(name) \(language): \(page)")
            #expect(page["reference_credit"] as? String == (aDisease ? catalogue.text("page.references.credit", ["collection": "PlantVillage", "licence": "CC BY-SA 3.0"]) : ""), "\(name) \(language)")
        }
    }

    @Test func aHealthyLeafGetsNoTreatment() throws {
        let server = try TestServer(["--jobs", "1"])
        try Self.upload(TestPaths.healthyTomatoLeaf, name: "photo-healthy", verdict: .diagnosis, label: "Tomato___healthy", on: server)
    }

    @Test func aDiseaseComesWithTwoPicturesToCompareWith() throws {
        let server = try TestServer(["--jobs", "1"])
        try Self.upload(Self.lateBlightLeaf, name: "photo-disease", verdict: .diagnosis, label: "Tomato___Late_blight", on: server)
    }

    /// Green salad on a hot dog: leaf enough to pass the vegetation check, but no leaf the
    /// model can be sure of.
    @Test func notSure() throws {
        let server = try TestServer(["--jobs", "1"])
        try Self.upload(TestPaths.samples + "/imagenet/hot_dog.jpg", name: "photo-uncertain", verdict: .uncertain, on: server)
    }

    @Test func noLeaf() throws {
        let server = try TestServer(["--jobs", "1"])
        try Self.upload(TestPaths.samples + "/imagenet/cat_720p.jpg", name: "photo-no-leaf", verdict: .noLeaf, on: server)
    }

    /// A plain grey picture, such as a lens cap or a wall gives.
    @Test func noPicture() throws {
        let folder = TestPaths.temporaryDirectory("grey")
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let (width, height) = (320, 240)
        TestImages.write(TestImages.jpeg([UInt8](repeating: 128, count: width * height * 3), width: width, height: height), to: folder + "/grey.jpg")
        let server = try TestServer(["--jobs", "1"])
        try Self.upload(folder + "/grey.jpg", name: "photo-no-picture", verdict: .noPicture, on: server)
    }

    @Test func theSignInPageReadsOnAPhoneInEachLanguage() throws {
        let folder = TestPaths.temporaryDirectory("signin")
        defer { TestPaths.removeTemporaryDirectory(folder) }
        try "greenhouse-5d2a-e8c1-token\n".write(toFile: folder + "/token", atomically: true, encoding: .utf8)
        let server = try TestServer(["--jobs", "1", "--token-file", folder + "/token"])
        for language in ["en", "ar"] {
            let page = try Self.read("http://127.0.0.1:\(server.port)/", language: language, photo: nil, name: "sign-in")
            Self.expectReadable(page, language, "sign-in")
        }
    }
}
