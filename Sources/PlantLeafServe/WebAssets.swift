import PlantLeafCore
import PlantLeafSupport

/// The pages `plantleaf serve` shows, from the files under Embedded/ (built into the binary, so it
/// needs no files and the page no outside request of any kind: its script and style are served
/// from the same binary, no fonts, no CDN), in the language of the request's catalogue. Large
/// type and strong contrast for a phone in a bright greenhouse; every control is a native one, so
/// it works from a keyboard too.
enum WebAssets {
    /// The photo page; with a link to the history when the server keeps a journal (its uploads'
    /// results are there, and the camera's readings when it has one).
    /// With `corrections`, the form to correct each result and the "Which plants?" section; with
    /// `referenceClasses`, the classes whose reference pictures it shows beside a diagnosis.
    static func page(_ catalogue: Catalogue, linksHistory: Bool = false, corrections: Corrections? = nil, referenceClasses: [String] = []) -> HTTPResponse {
        html(document(catalogue, title: catalogue["page.title"], head: linkedAssets + scriptTag + correctionScriptTag,
                      main: PageTemplate.serve.render("photo.html", catalogue, ["status": status(catalogue, waiting: ""),
                                                                           "result": result(catalogue, correction: corrections?.form(picture: "photo", catalogue: catalogue),
                                                                                            referenceClasses: referenceClasses),
                                                                           "history": linksHistory ? PageTemplate.serve.render("history-link.html", catalogue) : "",
                                                                           "known": corrections?.knownPlants(catalogue: catalogue) ?? ""])))
    }

    /// The camera's page: its name, its frames as they are read, and the newest reading beside them.
    static func livePage(_ catalogue: Catalogue, cameraName: String, corrections: Corrections? = nil, referenceClasses: [String] = []) -> HTTPResponse {
        html(document(catalogue, title: catalogue["page.title.live"], head: linkedAssets + scriptTag + correctionScriptTag, page: "/live",
                      main: PageTemplate.serve.render("live.html", catalogue, ["camera-name": HTMLText.escaped(cameraName),
                                                                          "status": status(catalogue, waiting: HTMLText.escaped(catalogue["page.waiting"])),
                                                                          "result": result(catalogue, correction: corrections?.form(picture: "live", catalogue: catalogue),
                                                                                           referenceClasses: referenceClasses)])))
    }

    /// The status line (and the details of a problem) of the photo page and the camera's.
    private static func status(_ catalogue: Catalogue, waiting: String) -> String {
        PageTemplate.serve.render("status.html", catalogue, ["waiting": waiting])
    }

    /// Where the script draws a reading, and the words it says, in the page's language; with the
    /// correction form, and the classes whose reference pictures it shows beside a diagnosis.
    private static func result(_ catalogue: Catalogue, correction: String?, referenceClasses: [String]) -> String {
        PageTemplate.serve.render("result.html", catalogue, ["texts": scriptTexts(catalogue), "correct": correction ?? "",
                                                       "credit": JournalPage.isolating(catalogue, "page.references.credit", ReferencePictures.credit),
                                                       "reference-classes": dataBlock("[" + referenceClasses.map(JSONObject.quote).joined(separator: ", ") + "]")])
    }

    /// The catalogue's texts the script uses (the page's words, the verdicts' and the reasons'), as a JSON
    /// object inside the page's data block: "</" written "<\/" so no text can end the block.
    static func scriptTexts(_ catalogue: Catalogue) -> String {
        var object = JSONObject()
        for key in Catalogue.english.ownKeys.sorted() where key.hasPrefix("page.") || key.hasPrefix("verdict.") || key.hasPrefix("reason-words.") {
            object.add(key, catalogue[key])
        }
        return dataBlock(object.text)
    }

    /// JSON made safe inside a page's data block: "</" written "<\\/" so no text can end it.
    private static func dataBlock(_ json: String) -> String { json.replacing("</", with: "<\\/") }

    /// The icon and the style sheet, as the pages link them once signed in (or without a token).
    static let linkedAssets = EmbeddedFiles.text["assets.html"] ?? ""
    private static let scriptTag = EmbeddedFiles.text["app-script.html"] ?? ""
    /// The script that sends the correction forms (Corrections), apart from app.js: the history page has it alone.
    static let correctionScriptTag = EmbeddedFiles.text["correct-script.html"] ?? ""

    /// A whole page in `catalogue`'s language and direction: the head every page has (its
    /// `title`, then `head`), the PlantLeaf heading with the switch to the other languages, and
    /// `main`, the page's content; the language switch comes back to `page`.
    static func document(_ catalogue: Catalogue, title: String, head: String, page: String = "/", main: String) -> String {
        PageTemplate.serve.render("document.html", catalogue, ["lang": catalogue.language, "dir": catalogue.isRightToLeft ? "rtl" : "ltr",
                                                         "title": HTMLText.escaped(title), "head": head, "main": main,
                                                         "languages": languageLinks(catalogue, page: page)])
    }

    /// A link to each other language, named in itself: following one sets the language cookie
    /// and comes back to `page` (`?to=`, one of `WebLanguage.returnPages`).
    private static func languageLinks(_ catalogue: Catalogue, page: String) -> String {
        Catalogue.languages.filter { $0 != catalogue.language }.compactMap { Catalogue(language: $0) }.map { other in
            PageTemplate.serve.render("language-link.html", catalogue, [
                "address": HTMLText.escaped(WebLanguage.switchPath + other.language + (page == "/" ? "" : "?to=" + page)), "language": other.language,
                "direction": other.isRightToLeft ? "rtl" : "ltr", "name": HTMLText.escaped(other.nativeName),
            ])
        }.joined(separator: " ")
    }

    /// The page shown instead when the server has a token and the browser has not signed in. The
    /// style sheet and the icon need the token too, so the page carries both: the style inline,
    /// the icon as a data: address, each allowed by the page's own policy (`signInPolicy`). The
    /// hidden user name is for password managers, which then keep the token under "plantleaf".
    static func signInPage(wrongToken: Bool, catalogue: Catalogue) -> HTTPResponse {
        let notice = wrongToken ? PageTemplate.serve.render("sign-in-wrong.html", catalogue) : ""
        let head = PageTemplate.serve.render("sign-in-head.html", catalogue, ["icon": iconAddress, "style": styleText])
        var response = html(document(catalogue, title: catalogue["page.title.sign-in"], head: head,
                                     main: PageTemplate.serve.render("sign-in.html", catalogue, ["notice": notice])))
        response.status = wrongToken ? 401 : 200
        return response
    }

    private static let styleText = EmbeddedFiles.text["style.css"] ?? ""
    private static let iconAddress = "data:image/svg+xml;base64," + Base64.encode(icon.body)

    /// The sign-in page's content security policy: its inline style by its SHA-256, its icon's
    /// data: address, and a form posted back here; nothing else, not even the server's own assets.
    static let signInPolicy = "default-src 'none'; style-src 'sha256-" + Base64.encode(SHA256.digest(of: style.body)) + "'; "
        + "img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    static let script = HTTPResponse(status: 200, contentType: "text/javascript; charset=utf-8", body: Array((EmbeddedFiles.text["app.js"] ?? "").utf8))

    static let correctionScript = HTTPResponse(status: 200, contentType: "text/javascript; charset=utf-8", body: Array((EmbeddedFiles.text["correct.js"] ?? "").utf8))

    /// clock.js: the viewer's UTC offset as a cookie, for the times of the pages the server draws (`ViewerClock`).
    static let clockScript = HTTPResponse(status: 200, contentType: "text/javascript; charset=utf-8", body: Array((EmbeddedFiles.text["clock.js"] ?? "").utf8))

    static let style = HTTPResponse(status: 200, contentType: "text/css; charset=utf-8", body: Array(styleText.utf8))

    /// The page's tab icon, a leaf. Without one, browsers ask for /favicon.ico and log its 404
    /// as an error in the console; a data: address instead would need a wider img-src.
    static let icon = HTTPResponse(status: 200, contentType: "image/svg+xml", body: Array((EmbeddedFiles.text["favicon.svg"] ?? "").utf8))

    static func html(_ text: String) -> HTTPResponse {
        HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: Array(text.utf8))
    }
}
