import PlantLeafCore
import PlantLeafSupport

/// A request as the server hands it on: the head, and the body once it has been read whole
/// (raw, or its form fields when it was a form).
public struct HTTPRequest: Sendable {
    /// The method, as sent (HTTP methods are case-sensitive).
    public var method: String
    /// The path without the query, percent-decoded by the library.
    public var path: String
    /// The headers the service looks at (lower-case names), as sent.
    public var headers: [String: String]
    /// The query parameters the service looks at (`keptQueryNames`), percent-decoded.
    public var query: [String: String] = [:]
    /// The body as sent, when it was not a form.
    public var body: [UInt8] = []
    /// A multipart/form-data form's fields by name. (A urlencoded body stays in `body`: the one
    /// route that takes it reads a single field, with `URLEncodedForm`.)
    public var fields: [String: FormField] = [:]
    /// The port the request came in on: the cookie's name carries it, so two servers on one
    /// host keep their sign-ins apart.
    public var localPort: UInt16 = 0

    public init(method: String, path: String, headers: [String: String]) {
        self.method = method
        self.path = path
        self.headers = headers
    }

    /// The header names `headers` keeps: what routing, the size limit, the host check, the token,
    /// the language and corrections need.
    public static let keptHeaders = ["content-type", "content-length", "authorization", "cookie", "transfer-encoding", "host", "accept-language",
                                      // Where a browser's request comes from: corrections refuse another site's.
                                      "sec-fetch-site", "origin"]

    /// The query parameters `query` keeps: the journal's selection and paging, the page the
    /// language switch comes back to, and which reference picture ("class", "n").
    public static let keptQueryNames = ["since", "until", "source", "after", "limit", "id", "to", "class", "n"]

    /// Whether a body follows the head: a length above zero, or chunks.
    public var hasBody: Bool {
        headers["transfer-encoding"] != nil || (declaredLength ?? 0) > 0 || (headers["content-length"] != nil && declaredLength == nil)
    }

    /// The media type of the body, lower-cased, without parameters ("multipart/form-data").
    public var mediaType: String? {
        guard let value = headers["content-type"] else { return nil }
        let type = value.split(separator: ";", maxSplits: 1).first.map(String.init) ?? value
        return type.trimmingWhitespace().lowercased()
    }

    /// "POST /api/classify", for the log (control characters in the path made visible).
    public var line: String { "\(method) \(TerminalText.neutralised(path))" }

    /// Content-Length as a number; nil when absent or not a plain decimal.
    public var declaredLength: UInt64? {
        headers["content-length"].flatMap { UInt64($0.trimmingWhitespace()) }
    }
}

/// One field of a form: its bytes, and the file name the browser gave an uploaded file.
public struct FormField: Sendable {
    public var bytes: [UInt8]
    public var fileName: String?
}
