import Foundation
import Glibc
import PlantLeafCore
import PlantLeafSupport
import PlantLeafTestSupport
import Testing

/// "Wrong? Tell PlantLeaf what this is" (POST /correct) and "Which plants?", through the built
/// binary: a correction teaches the picture at once, so the same photo sent again gets the
/// taught answer; a picture the journal keeps can be corrected by its address; requests from
/// another site, without a name, or with a name or picture that cannot be taught are refused and
/// teach nothing; beyond loopback without a token corrections are off, in the page's language.
/// In Chromium, an Arabic name taught on the page is the answer for the same photo and is named
/// among the plants the page knows.
@Suite struct ServeCorrectionTests {
    static let leaf = TestPaths.appleScabLeaf

    /// A server with its own lessons file (not there yet) and state folder, and the two paths.
    static func server(_ arguments: [String] = [], listen: String = "127.0.0.1:0") throws -> (server: TestServer, lessons: String, folder: String) {
        let folder = TestPaths.temporaryDirectory("correct")
        let lessons = folder + "/lessons.sqlite"
        let server = try TestServer(["--jobs", "1", "--lessons", lessons] + arguments, environment: ["XDG_STATE_HOME": folder + "/state"], listen: listen)
        return (server, lessons, folder)
    }

    /// POST /correct with the form `fields` (name and value) and, when given, the photo as `image`.
    /// The first correction into an empty lessons file measures the 76 sample leaves first: 7 s
    /// here, and past two minutes in a debug build under qemu-user (make test-aarch64), so the
    /// answer is awaited for ten minutes, a bound for a hung server rather than a speed.
    static func correct(_ server: TestServer, _ fields: [(String, String)], photo: [UInt8]? = nil, headers: [String] = []) throws -> RawHTTPResponse {
        let boundary = "plantleaf-correction-4b1e"
        var body: [UInt8] = []
        for (name, value) in fields {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        if let photo {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"image\"; filename=\"leaf.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
            body += photo + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return try RawHTTP.exchange(port: server.port, RawHTTP.request("POST", "/correct", headers: ["Content-Type: multipart/form-data; boundary=\(boundary)"] + headers,
                                                                       body: body), timeout: 600)
    }

    static func answer(_ response: RawHTTPResponse) -> [String: Any] {
        jsonObject(response.text.trimmingCharacters(in: .newlines)) ?? [:]
    }

    @Test func correctionTeachesThePhotoAtOnce() throws {
        let (server, lessons, folder) = try Self.server()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let photo = try ServeHTTPTests.leafBytes()
        let first = Self.answer(try ServeHTTPTests.upload(server, photo))
        #expect(first["answer_from"] as? String == "model", "\(first)")
        let corrected = try Self.correct(server, [("picture", "photo"), ("class", ""), ("new", "Cucumber — downy mildew")], photo: photo)
        #expect(corrected.status == 200, "\(corrected.text)")
        #expect(Self.answer(corrected)["taught"] as? String == "Cucumber — downy mildew")
        #expect(Self.answer(corrected)["class_lessons"] as? Int == 1)
        #expect(Self.answer(corrected)["message"] as? String
                == "Learnt: from now on a leaf like this one is named Cucumber — downy mildew (1 photo of it taught).")
        // The same photo, sent again: the lessons answer, without a restart.
        let again = Self.answer(try ServeHTTPTests.upload(server, photo))
        #expect(again["answer_from"] as? String == "lessons" && again["taught"] as? String == "Cucumber — downy mildew", "\(again)")
        #expect(again["verdict"] as? String == "diagnosis")
        // One of the model's labels, picked from the list, is named as the page names it.
        let label = try Self.correct(server, [("picture", "photo"), ("class", "Apple___Apple_scab")], photo: photo, headers: ["Accept-Language: ar"])
        #expect(Self.answer(label)["message"] as? String == "تعلّمها: من الآن تُسمّى ورقة كهذه تفاح — جرب التفاح (علّمته صورة واحدة).", "\(label.text)")
        // The lessons file is teach's own: teach lists both.
        let list = try runPlantLeaf(["teach", "list", "--lessons", lessons])
        #expect(list.status == 0 && list.stdout.contains("2 lessons of 2 classes") && list.stdout.contains("Cucumber — downy mildew"), "\(list.stdout)")
        // The page names the crops the model knows, and what was taught.
        let page = try ServeHTTPTests.get(server, "/").text
        #expect(page.contains("<h2>Which plants?</h2>") && !page.contains("{{"))
        #expect(page.contains("The model knows 14 crops: Apple, Blueberry, Cherry (including sour), Corn (maize), Grape, Orange, Peach, Pepper, bell, "
                              + "Potato, Raspberry, Soybean, Squash, Strawberry, Tomato."), "\(page)")
        #expect(page.contains("You taught it: Cucumber — downy mildew, Apple — Apple scab."))
        #expect(page.contains("<optgroup label=\"Tomato\"><option value=\"Tomato___Bacterial_spot\">Tomato — Bacterial spot</option>"))
        #expect(page.contains("<optgroup label=\"Taught by you\"><option value=\"Cucumber — downy mildew\">"))
        #expect(server.stderr.split(separator: "\n").count == 1, "serve logged: \(server.stderr)")
    }

    /// An upload's picture kept in the journal is corrected by its address, as /history's form sends it.
    @Test func keptPictureIsCorrectedByItsAddress() throws {
        let (server, lessons, folder) = try Self.server(["--keep-upload-photos"])
        defer { TestPaths.removeTemporaryDirectory(folder) }
        #expect(try ServeHTTPTests.upload(server, try ServeHTTPTests.leafBytes()).status == 200)
        // The journal writes on its own thread: the picture's address appears once it is in.
        var address: String?
        for _ in 0..<200 where address == nil {
            let history = try ServeHTTPTests.get(server, "/api/history").text
            address = history.range(of: "/api/readings/picture?id=").map { "/api/readings/picture?id=" + history[$0.upperBound...].prefix { $0.isNumber } }
            if address == nil { usleep(50_000) }
        }
        let picture = try #require(address)
        // /history shows the picture with its form, which names it by that address.
        let history = try ServeHTTPTests.get(server, "/history").text
        #expect(history.contains("<ol id=\"uploads\">\n<li><img src=\"\(picture)\"") && !history.contains("{{"), "\(history)")
        #expect(history.contains("<input type=\"hidden\" name=\"picture\" value=\"\(picture)\">"))
        let corrected = try Self.correct(server, [("picture", picture), ("new", "Bean — rust")])
        #expect(corrected.status == 200 && Self.answer(corrected)["class_lessons"] as? Int == 1, "\(corrected.text)")
        let list = try runPlantLeaf(["teach", "list", "--lessons", lessons])
        #expect(list.stdout.contains("Bean — rust") && list.stdout.contains("serve \(picture)"), "\(list.stdout)")
        let gone = try Self.correct(server, [("picture", "/api/readings/picture?id=999"), ("new", "Bean — rust")])
        #expect(gone.status == 404 && Self.answer(gone)["message"] as? String == "This picture is no longer kept: correct a newer one.", "\(gone.text)")
    }

    /// The camera's newest reading, as /live shows it, is corrected by `picture=live`.
    @Test func liveReadingIsCorrected() throws {
        let folder = TestPaths.temporaryDirectory("correct-live")
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let lessons = folder + "/lessons.sqlite"
        // One frame, then the stream ends: the server keeps serving that reading.
        let server = try TestServer(["--jobs", "1", "--lessons", lessons, "--input", "-"], environment: ["XDG_STATE_HOME": folder + "/state"],
                                    input: "cat '\(Self.leaf)'")
        var latest = 0
        for _ in 0..<600 where latest != 200 {
            latest = try ServeHTTPTests.get(server, "/api/latest").status
            if latest != 200 { usleep(50_000) }
        }
        #expect(latest == 200)
        let page = try ServeHTTPTests.get(server, "/live").text
        #expect(page.contains("<input type=\"hidden\" name=\"picture\" value=\"live\">") && !page.contains("{{"), "\(page)")
        let corrected = try Self.correct(server, [("picture", "live"), ("new", "Bean — healthy")])
        #expect(corrected.status == 200 && Self.answer(corrected)["taught"] as? String == "Bean — healthy", "\(corrected.text)")
        let list = try runPlantLeaf(["teach", "list", "--lessons", lessons])
        #expect(list.stdout.contains("Bean — healthy") && list.stdout.contains("serve live"), "\(list.stdout)")
    }

    /// Each refusal says why, in the log and in words for the page, and teaches nothing: the
    /// lessons file is not even made.
    @Test func refusedCorrectionsTeachNothing() throws {
        let (server, lessons, folder) = try Self.server()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let photo = try ServeHTTPTests.leafBytes()
        let name = [("picture", "photo"), ("new", "Mine")]
        let cases: [(what: String, response: RawHTTPResponse, status: Int, error: String, message: String?)] = [
            ("another site's page", try Self.correct(server, name, photo: photo, headers: ["Sec-Fetch-Site: cross-site"]), 403,
             "Sec-Fetch-Site is cross-site, not same-origin", "Refused: this correction did not come from this server's own page."),
            ("another origin", try Self.correct(server, name, photo: photo, headers: ["Origin: http://attacker.example", "Accept-Language: ar"]), 403,
             "Origin http://attacker.example is not this server's", "مرفوض: لم يأتِ هذا التصحيح من صفحة هذا الخادم نفسه."),
            ("no name", try Self.correct(server, [("picture", "photo"), ("class", ""), ("new", " ")], photo: photo), 400,
             "the form names no class: field 'class' or 'new'", "Choose what this is, or type its name."),
            ("a name of 10 kB", try Self.correct(server, [("new", String(repeating: "a", count: 10_000))], photo: photo), 400,
             "the class name has 10000 bytes, over 544", "Give it a name of 1 to 120 characters, on one line."),
            ("a name of 121 characters", try Self.correct(server, [("new", String(repeating: "ب", count: 121))], photo: photo), 400,
             "the class name has 121 characters, over 120", "Give it a name of 1 to 120 characters, on one line."),
            ("no picture", try Self.correct(server, name), 400,
             "the form has no picture: field 'image' (a photo), or 'picture' (live, or a journal picture's address)", "PlantLeaf could not learn from this picture."),
            ("no camera", try Self.correct(server, [("picture", "live"), ("new", "Mine")]), 404,
             "no camera: this server was started without --device or --input", "This picture is no longer kept: correct a newer one."),
            ("a photo with no leaf", try Self.correct(server, name, photo: try Data(contentsOf: URL(fileURLWithPath: TestPaths.samples + "/imagenet/cat_720p.jpg")).map { $0 }), 422,
             "serve upload leaf.jpg: not a leaf photo (no-green)",
             "PlantLeaf sees no leaf in this picture, so it cannot learn from it. Photograph one leaf so that it fills most of the picture."),
            ("a form that is not multipart", try RawHTTP.exchange(port: server.port, RawHTTP.request("POST", "/correct", headers: ["Content-Type: application/x-www-form-urlencoded"],
                                                                                                     body: Array("new=Mine".utf8))), 415,
             "send the correction as a multipart/form-data form: 'class' or 'new', and 'image' or 'picture'", nil),
            ("GET", try ServeHTTPTests.get(server, "/correct"), 405, "/correct takes POST, not GET", nil),
        ]
        for (what, response, status, error, message) in cases {
            #expect(response.status == status, "\(what): \(response.text)")
            #expect(Self.answer(response)["error"] as? String == error, "\(what): \(response.text)")
            #expect(Self.answer(response)["message"] as? String == message, "\(what): \(response.text)")
            #expect(server.stderr(containing: error).contains("\(status) \(what == "GET" ? "GET" : "POST") /correct: \(error)"), "\(what)")
        }
        #expect(!FileManager.default.fileExists(atPath: lessons))
    }

    /// With a token, corrections are taken beyond loopback too, from those who have it only.
    @Test func withATokenCorrectionsNeedIt() throws {
        let folder = TestPaths.temporaryDirectory("correct-token")
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let token = "greenhouse-7c3e-b9a0-token"
        try (token + "\n").write(toFile: folder + "/token", atomically: true, encoding: .utf8)
        let server = try TestServer(["--jobs", "1", "--lessons", folder + "/lessons.sqlite", "--token-file", folder + "/token"],
                                    environment: ["XDG_STATE_HOME": folder + "/state"], listen: "0.0.0.0:0")
        let photo = try ServeHTTPTests.leafBytes()
        let refused = try Self.correct(server, [("picture", "photo"), ("new", "Mine")], photo: photo)
        #expect(refused.status == 401, "\(refused.text)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/lessons.sqlite"))
        let taught = try Self.correct(server, [("picture", "photo"), ("new", "Mine")], photo: photo, headers: ["Authorization: Bearer \(token)"])
        #expect(taught.status == 200 && Self.answer(taught)["taught"] as? String == "Mine", "\(taught.text)")
    }

    /// A lessons file taught with another model takes no correction from this one (the same
    /// length of features, another meaning), and is left as it was.
    @Test func lessonsOfAnotherModelTakeNoCorrection() throws {
        let folder = TestPaths.temporaryDirectory("correct-model")
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let lessons = folder + "/lessons.sqlite"
        let generalist = ["--model", TestPaths.models + "/mobilenet_v2_1.0_224_quant.tflite", "--labels", TestPaths.samples + "/imagenet/imagenet_labels.txt"]
        let taught = try runPlantLeaf(["teach", "add", "--lessons", lessons, "--class", "Mine", Self.leaf] + generalist, environment: ["XDG_STATE_HOME": folder + "/state"],
                                      timeLimit: 300)
        #expect(taught.status == 0, "stderr: \(taught.stderr)")
        let before = try Data(contentsOf: URL(fileURLWithPath: lessons))
        let server = try TestServer(["--jobs", "1", "--lessons", lessons], environment: ["XDG_STATE_HOME": folder + "/state"])
        let refused = try Self.correct(server, [("picture", "photo"), ("new", "Mine")], photo: try ServeHTTPTests.leafBytes())
        #expect(refused.status == 500 && (Self.answer(refused)["error"] as? String ?? "").hasPrefix("the lessons file was taught with another model ("), "\(refused.text)")
        server.stop()
        #expect(try Data(contentsOf: URL(fileURLWithPath: lessons)) == before)
    }

    /// Listening where other machines reach it, without a token, serve takes no corrections: the
    /// page says so in its language instead of the form, and the route refuses.
    @Test func noCorrectionsBeyondLoopbackWithoutAToken() throws {
        let (server, lessons, folder) = try Self.server(listen: "0.0.0.0:0")
        defer { TestPaths.removeTemporaryDirectory(folder) }
        for (language, message) in [("en", "Corrections are off: this server is open to other machines without a password. Whoever runs it can set one, to correct answers from this page."),
                                    ("ar", "التصحيح معطّل: هذا الخادم مفتوح للأجهزة الأخرى بلا كلمة مرور. يستطيع من يشغّله أن يضبط كلمة مرور لتصحيح الإجابات من هذه الصفحة.")] {
            let refused = try Self.correct(server, [("picture", "photo"), ("new", "Mine")], photo: try ServeHTTPTests.leafBytes(), headers: ["Accept-Language: \(language)"])
            #expect(refused.status == 403, "\(refused.text)")
            #expect(Self.answer(refused)["message"] as? String == message)
            #expect(Self.answer(refused)["error"] as? String == "corrections need --token-file on an address other machines can reach")
            let page = try ServeHTTPTests.get(server, "/", headers: ["Accept-Language: \(language)"]).text
            #expect(page.contains("<p class=\"hint\">\(HTMLText.escaped(message))</p>") && !page.contains("<form class=\"correct-form\""))
        }
        #expect(!FileManager.default.fileExists(atPath: lessons))
    }

    /// The floor "a correction made on the page changes the answer for the same photo uploaded
    /// again", in Chromium at a phone's size in Arabic, with an Arabic name.
    @Test func correctionInTheBrowserChangesTheAnswerForTheSamePhoto() throws {
        let (server, _, folder) = try Self.server()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        let name = "خيار — البياض الزغبي"
        let screenshot = ServeBrowserTests.outputFolder + "/correction-ar.png"
        let script = TestPaths.root + "/Tests/PlantLeafCLITests/Browser/correct_page.py"
        let browserFolder = TestPaths.temporaryDirectory("correct-browser")
        defer { TestPaths.removeTemporaryDirectory(browserFolder) }
        try FileManager.default.createDirectory(atPath: ServeBrowserTests.outputFolder, withIntermediateDirectories: true)
        let environment = ["HOME": browserFolder, "TMPDIR": browserFolder, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        let result = try runCommand("/usr/bin/python3", [script, "--lang", "ar", "http://127.0.0.1:\(server.port)/", Self.leaf, name, screenshot],
                                    environment: environment, timeLimit: ServeBrowserTests.browserTimeLimit)
        if result.status == 3 { throw ServeBrowserTests.BrowserProblem(description: result.stderr.trimmingCharacters(in: .newlines)) }
        let page = try #require(jsonObject(result.stdout.trimmingCharacters(in: .newlines)), "correct_page.py: \(result.stderr.suffix(3000))")
        #expect(page["timed_out"] as? Bool == false, "\(page)")
        #expect(page["before"] as? String == "تفاح — جرب التفاح", "\(page)")
        #expect(page["status"] as? String == "تعلّمها: من الآن تُسمّى ورقة كهذه \(name) (علّمته صورة واحدة).", "\(page)")
        #expect(page["after"] as? String == name, "\(page)")
        #expect((page["meaning"] as? String ?? "").hasPrefix("سمّته دروسك"), "\(page)")
        #expect((page["known"] as? String ?? "").contains("يعرف النموذج 14 محصولًا: تفاح، التوت الأزرق،"), "\(page)")
        #expect((page["known"] as? String ?? "").contains("ممّا علّمته: \(name)."), "\(page)")
        #expect((page["console"] as? [Any])?.isEmpty == true, "the page logged, threw or was refused something: \(page)")
        #expect(page["screenshot_saved"] as? Bool == true)
    }
}
