import PlantLeafCore
import PlantLeafSupport

/// The language a request's page and answers are in: the one the page's switch chose (its cookie),
/// else the one the browser asks for most (Accept-Language) of those there is a catalogue for,
/// else English.
enum WebLanguage {
    /// The cookie the switch sets; not the token's, so choosing a language needs no sign-in.
    static let cookieName = "plantleaf_lang"
    /// `/language/ar`: sets the cookie to "ar" and goes back to the photo page, or with
    /// `?to=/live` to that page (one of `returnPages`: never to another site).
    static let switchPath = "/language/"
    static let returnPages: Set<String> = ["/", "/live", "/history"]

    static func catalogue(for request: HTTPRequest) -> Catalogue {
        for pair in (request.headers["cookie"] ?? "").split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingWhitespace() == cookieName, let chosen = Catalogue(language: parts[1].trimmingWhitespace()) {
                return chosen
            }
        }
        return Catalogue.preferred(acceptLanguage: request.headers["accept-language"] ?? "")
    }

    /// The answer to `/language/CODE`: back to `returnTo` (the photo page unless it is one of
    /// `returnPages`) with the cookie set; nil when there is no such language.
    static func switchResponse(path: String, returnTo: String? = nil, secure: Bool) -> HTTPResponse? {
        guard path.hasPrefix(switchPath), let chosen = Catalogue(language: String(path.dropFirst(switchPath.count))) else { return nil }
        let cookie = "\(cookieName)=\(chosen.language); Path=/; SameSite=Strict; Max-Age=31536000" + (secure ? "; Secure" : "")
        return HTTPResponse(status: 303, contentType: "text/plain; charset=utf-8", body: Array("\(chosen.nativeName)\n".utf8),
                            headers: [("Location", returnTo.flatMap { returnPages.contains($0) ? $0 : nil } ?? "/"), ("Set-Cookie", cookie)])
    }
}
