import PlantLeafCore
import PlantLeafJournal
import PlantLeafSupport

/// What `plantleaf serve` answers: the page and its assets (script, style, icon), the JSON API
/// and the metrics, and with a camera its live view (the newest reading, the frame as a still and
/// as a motion-JPEG stream). Every response carries headers that keep the page to its own assets; with a
/// token, every route but `/api/health` needs it (as `Authorization: Bearer TOKEN`, or the
/// cookie the page's sign-in sets), compared in constant time. Every route but `/api/health`
/// also needs a Host header that names this server (`ServedNames`).
public final class WebService: HTTPService {
    private let workers: InferenceWorkers
    private let token: AccessToken?
    private let bodyLimit: Int
    private let servedNames: ServedNames
    private let secureCookies: Bool
    private let metrics = ServeMetrics()
    private let feed: LiveFeed?
    private let journal: JournalRecorder?
    /// --keep-upload-photos: each upload's journal row gets the model's input picture.
    private let keepsUploadPhotos: Bool
    /// The lessons that page corrections teach (`Corrections`); nil without a lessons file.
    private let corrections: Corrections?
    private let log: @Sendable (String) -> Void
    private let logThrottle = LogThrottle()
    /// The sample leaves a diagnosis is shown beside, and the disease classes that have them.
    private let referencePictures: ReferencePictures
    private let referenceClasses: [String]
    /// The camera's name (camera --name, else the device's own), the live page's heading.
    private let cameraName: String?

    /// The most bytes a sign-in's body may have: a form with the token (and a user name a
    /// password manager fills in) is a few hundred.
    static let signInBodyBytes = 4096

    /// Why there is no history without the journal, and how a camera's --log becomes one: the
    /// answer of /history and /api/history with --no-journal, and serve's notice when given --log too.
    package static let historyWithoutJournal = "no history: it comes from the journal only, which --no-journal turns off; "
        + "to see a camera's --log there, run plantleaf journal import LOG.jsonl, then serve with --journal FILE"

    /// Serves with the model instances of `workers` (one upload at a time on each, the camera's
    /// readings ahead of uploads waiting; their options say how many classes a result lists),
    /// the camera's readings from `feed` when there is a camera. `journal`, when kept, gets each
    /// upload's and camera reading's result (with
    /// `keepsUploadPhotos` a small copy of the picture the model read, never the file itself)
    /// and answers /history, /api/history and /api/events. `servedNames` are the Host
    /// values it answers; `secureCookies` marks the sign-in's cookie Secure (under HTTPS). The
    /// connections' threads hand uploads to the workers' queue, and are refused with 503 when it is full.
    package init(workers: InferenceWorkers, token: AccessToken?, bodyLimit: Int, feed: LiveFeed?,
                journal: JournalRecorder? = nil, keepsUploadPhotos: Bool = false, corrections: Corrections? = nil, servedNames: ServedNames = ServedNames(extraNames: []), secureCookies: Bool = false,
                referencePictures: ReferencePictures = ReferencePictures(folder: nil), cameraName: String? = nil,
                log: @escaping @Sendable (String) -> Void) {
        self.workers = workers
        self.token = token
        self.bodyLimit = bodyLimit
        self.servedNames = servedNames
        self.secureCookies = secureCookies
        self.feed = feed
        self.journal = journal
        self.keepsUploadPhotos = keepsUploadPhotos && journal != nil
        self.corrections = corrections
        self.referencePictures = referencePictures
        self.cameraName = cameraName
        // Only a disease is compared with pictures: the catalogue has its signs.
        referenceClasses = referencePictures.classes.filter { Catalogue.english.signs(of: $0) != nil }
        self.log = log
    }

    /// The routes: path, the methods it answers, and whether it reads a body.
    private enum Route: String, CaseIterable {
        case page = "/", script = "/app.js", clock = "/clock.js", style = "/style.css", icon = "/favicon.svg", health = "/api/health",
             classify = "/api/classify", metrics = "/metrics", signIn = "/sign-in",
             live = "/live", latest = "/api/latest", snapshot = "/snapshot.jpg", stream = "/stream.mjpg",
             historyPage = "/history", historyData = "/api/history", events = "/api/events",
             correct = "/correct", correctionScript = "/correct.js",
             referencePicture = "/api/reference-picture",
             // Each of `JournalPicture`'s addresses (no request's path is this word).
             journalPicture = "journal picture"

        var methods: [String] {
            switch self {
            case .classify, .signIn, .correct: return ["POST"]
            default: return ["GET", "HEAD"]
            }
        }
    }

    public func admit(_ request: HTTPRequest) -> HTTPResponse? {
        if request.path.hasPrefix(WebLanguage.switchPath) { return languageSwitch(request) }
        let picture = JournalPicture(rawValue: request.path)
        guard let route = picture == nil ? Route(rawValue: request.path).flatMap({ $0 == .journalPicture ? nil : $0 }) : .journalPicture else {
            return refusal(request, 404, "no such page: \(request.path)")
        }
        guard route.methods.contains(request.method) else {
            return refusal(request, 405, "\(request.path) takes \(route.methods.joined(separator: " or ")), not \(request.method)",
                           headers: [("Allow", route.methods.joined(separator: ", "))])
        }
        // An HTTP/1.0 client may send no Host; a browser always does, so its absence is no rebinding.
        if route != .health, let wrongHost = hostRefusal(request) { return wrongHost }
        if let token, route != .health, route != .signIn, !token.admits(request) {
            if route == .page {
                return secured(WebAssets.signInPage(wrongToken: false, catalogue: WebLanguage.catalogue(for: request)), policy: WebAssets.signInPolicy)
            }
            return refusal(request, 401, "this server needs its token: send Authorization: Bearer TOKEN")
        }
        switch route {
        case .page: return secured(WebAssets.page(WebLanguage.catalogue(for: request), linksHistory: journal != nil, corrections: corrections, referenceClasses: referenceClasses))
        case .script: return secured(WebAssets.script)
        case .correctionScript: return secured(WebAssets.correctionScript)
        case .correct: return admitCorrection(request)
        case .clock: return secured(WebAssets.clockScript)
        case .style: return secured(WebAssets.style)
        case .icon: return secured(WebAssets.icon)
        case .health:
            return secured(.json(200, #"{"status": "ok", "camera": ""# + (feed.map { $0.current.state.rawValue } ?? "none") + #""}"#))
        case .metrics:
            return secured(HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8",
                                        body: Array(metrics.text(camera: feed?.currentCounts, instances: workers.instances, queued: workers.inputs, classified: workers.counts).utf8)))
        case .live, .latest, .snapshot, .stream:
            return live(route, request)
        case .referencePicture:
            return referencePicture(request)
        case .historyPage, .historyData, .events, .journalPicture:
            return journalAnswer(route, request, picture: picture)
        case .classify:
            if let length = request.declaredLength, length > UInt64(bodyLimit) {
                return refusal(request, 413, "the upload is \(length) bytes, over the \(FileReader.sizeText(bodyLimit)) limit")
            }
            let accepted = ["multipart/form-data", "application/octet-stream", "image/jpeg", "image/png"]
            guard let type = request.mediaType, accepted.contains(type) || type.hasPrefix("image/") else {
                return refusal(request, 415, "send the image as the body (image/jpeg, image/png) or as form field 'image' (multipart/form-data)")
            }
            if let busy = queueFull(request) { return busy }
            return nil
        case .signIn:
            guard token != nil else { return refusal(request, 404, "this server has no token to sign in with") }
            // Refused from the head, so a large form is never read, let alone kept.
            guard let length = request.declaredLength, request.headers["transfer-encoding"] == nil else {
                return refusal(request, 411, "the sign-in form needs a Content-Length")
            }
            guard length <= UInt64(WebService.signInBodyBytes) else {
                return refusal(request, 413, "the sign-in form is \(length) bytes, over its \(WebService.signInBodyBytes) byte limit")
            }
            guard request.mediaType == "application/x-www-form-urlencoded" else {
                return refusal(request, 415, "send the sign-in form as application/x-www-form-urlencoded")
            }
            return nil
        }
    }

    /// `/language/CODE`, the page's switch of language: allowed without the token (the sign-in
    /// page has the switch too, and it sets nothing but the language), but only for this server's names.
    private func languageSwitch(_ request: HTTPRequest) -> HTTPResponse {
        guard ["GET", "HEAD"].contains(request.method) else {
            return refusal(request, 405, "\(request.path) takes GET or HEAD, not \(request.method)", headers: [("Allow", "GET, HEAD")])
        }
        if let wrongHost = hostRefusal(request) { return wrongHost }
        guard let response = WebLanguage.switchResponse(path: request.path, returnTo: request.query["to"], secure: secureCookies) else {
            return refusal(request, 404, "no such language: \(TerminalText.neutralised(String(request.path.dropFirst(WebLanguage.switchPath.count)))) "
                           + "(there are \(Catalogue.languages.joined(separator: ", ")))")
        }
        return secured(response)
    }

    /// The 421 for a Host that does not name this server; nil when it does or there is none.
    private func hostRefusal(_ request: HTTPRequest) -> HTTPResponse? {
        guard let host = request.headers["host"], !servedNames.answers(forHost: host) else { return nil }
        return refusal(request, 421, "this server does not answer for the name in Host: \(TerminalText.neutralised(host)) "
                       + "(start it with --host NAME to be reached by that name)")
    }

    /// A 503 that says when to try again, when the inference queue is full; nil when there is room.
    /// Uploads are refused here from the head, before their body is read, and again by the
    /// queue itself once the body is in (`respond`): the queue counts only inputs whose body is
    /// in (waiting or being classified), so a burst admitted here may still find it full then.
    /// The bodies being read meanwhile are bounded by the server's bytes in flight instead.
    private func queueFull(_ request: HTTPRequest) -> HTTPResponse? {
        workers.busy.map { busy(request, $0) }
    }

    private func busy(_ request: HTTPRequest, _ busy: InferenceWorkers.Busy) -> HTTPResponse {
        refusal(request, 503, "\(busy.inputs) pictures are being classified or waiting: try again in \(busy.retryAfterSeconds) s",
                headers: [("Retry-After", String(busy.retryAfterSeconds))])
    }

    /// The camera's routes: its page, its newest reading, that reading's frame, and the stream of frames.
    private func live(_ route: Route, _ request: HTTPRequest) -> HTTPResponse {
        guard let feed else { return refusal(request, 404, "no camera: this server was started without --device or --input") }
        if route == .live { return secured(WebAssets.livePage(WebLanguage.catalogue(for: request), cameraName: cameraName ?? "", corrections: corrections, referenceClasses: referenceClasses)) }
        if route == .stream {
            var response = HTTPResponse(status: 200, contentType: MJPEGViewer.contentType, body: [])
            response.stream = MJPEGViewer(feed: feed)
            return secured(response)
        }
        guard let reading = feed.current.reading else { return refusal(request, 404, "no reading yet: the camera is starting") }
        if route == .latest { return secured(.json(200, reading.record.json(in: WebLanguage.catalogue(for: request)))) }
        guard let jpeg = reading.frameJPEG else { return refusal(request, 404, "no frame yet: the camera is starting") }
        return secured(HTTPResponse(status: 200, contentType: "image/jpeg", body: jpeg))
    }

    /// `/api/reference-picture?class=LABEL&n=0`: a sample leaf of a disease class, to compare a
    /// diagnosed leaf with. Only the classes and files listed at start are served.
    private func referencePicture(_ request: HTTPRequest) -> HTTPResponse {
        guard let label = request.query["class"], let number = request.query["n"].flatMap({ Int($0) }),
              let picture = referencePictures.picture(of: label, number: number) else {
            return refusal(request, 404, "no such reference picture: class must be a class with sample leaves, n 0 to \(ReferencePictures.perClass - 1)")
        }
        return secured(HTTPResponse(status: 200, contentType: picture.mediaType, body: picture.bytes))
    }

    /// The journal's history, events and pictures.
    private func journalAnswer(_ route: Route, _ request: HTTPRequest, picture: JournalPicture?) -> HTTPResponse {
        guard let journal else {
            return refusal(request, 404, route == .historyPage || route == .historyData ? WebService.historyWithoutJournal
                                                                                        : "no journal: this server was started with --no-journal")
        }
        let now = ViewerClock.now(for: request)
        if let picture {
            guard let id = request.query["id"].flatMap({ Int64($0) }) else { return refusal(request, 400, "id must be a picture's number") }
            do {
                let jpeg = try journal.read { (journal: Journal) throws(JournalError) in try picture.jpeg(id: id, in: journal) }
                guard let jpeg else { return refusal(request, 404, "no picture \(id) (or retention removed it)") }
                return secured(HTTPResponse(status: 200, contentType: "image/jpeg", body: jpeg))
            } catch {
                return refusal(request, 503, "\(error)")
            }
        }
        if route == .historyPage {
            do {
                let source = request.query["source"], catalogue = WebLanguage.catalogue(for: request)
                return secured(try journal.read { (journal: Journal) throws(JournalError) in try JournalPage.page(journal, source: source, now: now, keepsUploadPhotos: keepsUploadPhotos, catalogue: catalogue,
                                                                                                      corrections: corrections) })
            } catch {
                return refusal(request, 503, "\(error)")
            }
        }
        let selection: Journal.Selection
        switch JournalAPI.selection(request.query, now: now, defaultSpan: route == .historyData ? JournalAPI.defaultHistoryMilliseconds : nil) {
        case .success(let chosen): selection = chosen
        case .failure(let error): return refusal(request, 400, error.message)
        }
        do {
            let text = try journal.read { (journal: Journal) throws(JournalError) in
                route == .events ? try JournalAPI.events(journal, selection, now: now) : try JournalAPI.history(journal, selection, now: now)
            }
            return secured(.json(200, text))
        } catch {
            return refusal(request, 503, "\(error)")
        }
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        if request.path == Route.signIn.rawValue { return signIn(request) }
        if request.path == Route.correct.rawValue { return correct(request) }
        let upload: [UInt8], name: String
        if request.mediaType == "multipart/form-data" {
            guard let field = request.fields["image"] else {
                return refusal(request, 400, "the form has no field 'image'")
            }
            upload = field.bytes
            name = field.fileName.flatMap { $0.isEmpty ? nil : $0 } ?? "upload"
        } else {
            upload = request.body
            name = "upload"
        }
        guard !upload.isEmpty else { return refusal(request, 400, "the image is empty") }
        let start = MonotonicClock.nanoseconds()
        let keepsPhoto = keepsUploadPhotos
        // Queued once the body is in, or refused if the queue filled while it was being read.
        let offer: InferenceWorkers.Offer<Result<(Classification, RGBImage?), InputError<ImageError>>> = workers.runUnlessFull { classifier in
            do throws(InputError<ImageError>) {
                return .success((try classifier.classify(bytes: upload), keepsPhoto ? classifier.modelInput : nil))
            } catch {
                return .failure(error)
            }
        }
        let outcome: Result<(Classification, RGBImage?), InputError<ImageError>>
        switch offer {
        case .answered(let answer): outcome = answer
        case .refused(let full): return busy(request, full)
        }
        switch outcome {
        case .success(let (result, modelInput)):
            metrics.classified(result.verdict, seconds: MonotonicClock.milliseconds(since: start) / 1000)
            let record = ReadingRecord(result, path: PathName(name))
            // With --keep-upload-photos, the model's small copy of the photo: the photo itself
            // stays the grower's (and its file's name, which the journal has no column for).
            journal?.record(record, source: "upload", time: .now(), makesEvents: false, readingPicture: modelInput.flatMap(EventPicture.encode)) { nil }
            return secured(.json(200, record.json(in: WebLanguage.catalogue(for: request))))
        case .failure(.unusable(let error)):
            metrics.unclassifiable()
            return refusal(request, 422, "not an image PlantLeaf can read: \(error)")
        case .failure(.runtime(let error)):
            metrics.unclassifiable()
            return refusal(request, 500, "inference failed: \(error)")
        }
    }

    // MARK: corrections

    /// POST /correct from its head: refused where corrections are not taken (no lessons file; no
    /// token beyond loopback; another site's page), for a body that is no form or is too large,
    /// and when the queue is full.
    private func admitCorrection(_ request: HTTPRequest) -> HTTPResponse? {
        guard let corrections else { return refusal(request, 404, "no lessons file to teach: give --lessons FILE") }
        if let refused = corrections.refusal(request) { return correctionRefusal(request, 403, refused.reason, key: refused.key) }
        if let length = request.declaredLength, length > UInt64(bodyLimit) {
            return refusal(request, 413, "the upload is \(length) bytes, over the \(FileReader.sizeText(bodyLimit)) limit")
        }
        guard request.mediaType == "multipart/form-data" else {
            return refusal(request, 415, "send the correction as a multipart/form-data form: 'class' or 'new', and 'image' or 'picture'")
        }
        return queueFull(request)
    }

    /// POST /correct with its form: the picture it names taught as the class it names.
    private func correct(_ request: HTTPRequest) -> HTTPResponse {
        guard let corrections else { return refusal(request, 404, "no lessons file to teach: give --lessons FILE") }
        let catalogue = WebLanguage.catalogue(for: request)
        let className: String
        switch Corrections.className(in: request.fields) {
        case .success(let name): className = name
        case .failure(let problem): return correctionRefusal(request, problem.status, problem.description, key: problem.key)
        }
        let picture: [UInt8]
        switch correctionPicture(request) {
        case .success(let bytes): picture = bytes
        case .failure(let problem): return correctionRefusal(request, problem.status, problem.description, key: problem.key)
        }
        // The lesson's source, as `teach list` shows it: the photo's name, or where serve had the picture.
        let source = request.fields["image"].map { "serve upload " + ($0.fileName ?? "") }
            ?? "serve " + String(decoding: request.fields["picture"]?.bytes.prefix(64) ?? [], as: UTF8.self)
        switch corrections.teach(picture, className: className, source: source, workers: workers) {
        case .success(let lessons):
            var answer = JSONObject()
            answer.add("taught", className)
            answer.add("class_lessons", lessons)
            answer.add("message", catalogue.text("page.correct.done", ["class": corrections.displayName(className, catalogue), "photos": catalogue.count("photo", lessons)]))
            return secured(.json(200, answer.text))
        case .failure(let problem):
            var response = correctionRefusal(request, problem.status, problem.description, key: problem.key)
            if case .busy(let busy) = problem { response.headers.append(("Retry-After", String(busy.retryAfterSeconds))) }
            return response
        }
    }

    /// The picture a correction names: the photo sent with it (field `image`), the camera's
    /// newest reading (`picture=live`), or a picture the journal keeps (`picture=` its address).
    private func correctionPicture(_ request: HTTPRequest) -> Result<[UInt8], CorrectionProblem> {
        if let image = request.fields["image"], !image.bytes.isEmpty { return .success(image.bytes) }
        guard let reference = request.fields["picture"].flatMap({ String(validating: $0.bytes.prefix(256), as: UTF8.self) }) else { return .failure(.noPicture) }
        if reference == "live" {
            guard let feed else { return .failure(.pictureGone("no camera: this server was started without --device or --input")) }
            guard let jpeg = feed.current.reading?.frameJPEG else { return .failure(.pictureGone("no reading yet: the camera is starting")) }
            return .success(jpeg)
        }
        let parts = reference.split(separator: "?", maxSplits: 1)
        guard parts.count == 2, let kind = JournalPicture(rawValue: String(parts[0])), parts[1].hasPrefix("id="), let id = Int64(parts[1].dropFirst(3)) else {
            return .failure(.noPicture)
        }
        guard let journal else { return .failure(.pictureGone("no journal: this server was started with --no-journal")) }
        do {
            let jpeg = try journal.read { (journal: Journal) throws(JournalError) in try kind.jpeg(id: id, in: journal) }
            guard let jpeg else { return .failure(.pictureGone("no picture \(id) (or retention removed it)")) }
            return .success(jpeg)
        } catch {
            return .failure(.pictureGone("\(error)"))
        }
    }

    /// A correction refused: the log's line, and JSON with the reason (`error`) and the page's words (`message`).
    private func correctionRefusal(_ request: HTTPRequest, _ status: Int, _ reason: String, key: String) -> HTTPResponse {
        refused(request.line, status: status, reason: reason)
        var answer = JSONObject()
        answer.add("error", reason)
        answer.add("message", WebLanguage.catalogue(for: request)[key])
        return secured(.json(status, answer.text))
    }

    public func refused(_ requestLine: String?, status: Int, reason: String) {
        metrics.refused(status: status)
        let method = requestLine?.split(separator: " ", maxSplits: 1).first.map(String.init) ?? "a connection"
        if let line = logThrottle.admit("\(status) \(requestLine ?? "a connection"): \(reason)", kind: "\(status) \(method.prefix(16))") {
            log(line)
        }
    }

    private func signIn(_ request: HTTPRequest) -> HTTPResponse {
        guard let token, token.matches(URLEncodedForm.value(of: "token", in: request.body) ?? []) else {
            refused(request.line, status: 401, reason: "wrong token")
            return secured(WebAssets.signInPage(wrongToken: true, catalogue: WebLanguage.catalogue(for: request)), policy: WebAssets.signInPolicy)
        }
        return secured(HTTPResponse(status: 303, contentType: "text/plain; charset=utf-8", body: Array("signed in\n".utf8),
                                    headers: [("Location", "/"), ("Set-Cookie", token.cookie(port: request.localPort, secure: secureCookies))]))
    }

    private func refusal(_ request: HTTPRequest, _ status: Int, _ message: String, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        refused(request.line, status: status, reason: message)
        var response = HTTPResponse.error(status, message)
        response.headers += headers
        return secured(response)
    }

    /// The headers every response carries: no content sniffing, no framing, no referrer, the
    /// page limited to its own script and style (and the photo the user picked, as a blob:).
    private func secured(_ response: HTTPResponse, policy: String = WebService.contentSecurityPolicy) -> HTTPResponse {
        var response = response
        response.headers += [("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer"),
                             ("Content-Security-Policy", policy), ("Cache-Control", "no-store")]
        return response
    }

    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; "
        + "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
}
