import Glibc
import PlantLeafCore
import PlantLeafJournal
import PlantLeafLessons
import PlantLeafSupport

/// "Wrong? Tell PlantLeaf what this is": a grower names a picture on the page (an upload, the
/// camera's newest reading, a picture the journal keeps) and it becomes a lesson at once, taught
/// as `plantleaf teach add` teaches (`LessonMaking`), written to the lessons file serve reads,
/// and handed to every model instance before its next photo (`LiveLessons`).
///
/// Like every route it needs the token when serve has one. Without a token it is refused where
/// other machines can reach the server (anyone on the network could teach it), and always when
/// the request comes from another site's page (`Sec-Fetch-Site`, `Origin`).
package final class Corrections: Sendable {
    /// The most bytes a class name may take in the form: `LessonsFile.maximumNameLength`
    /// characters of up to four bytes each, and a little whitespace around them (trimmed). The
    /// form as a whole is an upload's size at most (`--max-upload`): it may carry the photo.
    static let nameBytes = 4 * LessonsFile.maximumNameLength + 64

    let lessonsPath: String
    let live: LiveLessons
    /// The sample leaves, measured once when the lessons file gets its first lesson.
    private let sampleFolder: String?
    /// Whether corrections are taken: with a token, or on loopback only.
    let allowed: Bool
    /// The model's labels, the known classes a correction may pick.
    let labels: [String]
    /// One correction written at a time, so the lessons reloaded after it include it.
    private let writing = Lock(())

    package init(lessonsPath: String, live: LiveLessons, sampleFolder: String?, allowed: Bool, labels: [String]) {
        self.lessonsPath = lessonsPath
        self.live = live
        self.sampleFolder = sampleFolder
        self.allowed = allowed
        self.labels = labels
    }

    /// A refusal of the request from its head: the catalogue's key and the log's reason; nil when it may go on.
    func refusal(_ request: HTTPRequest) -> (key: String, reason: String)? {
        if !allowed {
            return ("page.correct.refused.open", "corrections need --token-file on an address other machines can reach")
        }
        // A browser says where a request comes from: a page of another site may not teach this one.
        if let site = request.headers["sec-fetch-site"], site != "same-origin", site != "none" {
            return ("page.correct.refused.other-site", "Sec-Fetch-Site is \(TerminalText.neutralised(site)), not same-origin")
        }
        if let origin = request.headers["origin"] {
            let host = origin.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first.map(String.init)
            if origin == "null" || host?.lowercased() != request.headers["host"]?.lowercased() {
                return ("page.correct.refused.other-site", "Origin \(TerminalText.neutralised(origin)) is not this server's")
            }
        }
        return nil
    }

    /// The class name the form gives: a typed new name first, else the one picked.
    /// - Returns: the name, or why there is none usable (a `LessonsFile.nameProblem`).
    static func className(in fields: [String: FormField]) -> Result<String, CorrectionProblem> {
        for field in ["new", "class"] {
            guard let bytes = fields[field]?.bytes else { continue }
            guard bytes.count <= nameBytes else { return .failure(.badName("the class name has \(bytes.count) bytes, over \(nameBytes)")) }
            guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(.badName("the class name is not UTF-8")) }
            if text.trimmingWhitespace().isEmpty { continue }
            if let problem = LessonsFile.nameProblem(text) { return .failure(.badName(problem)) }
            return .success(text.trimmingWhitespace())
        }
        return .failure(.noName)
    }

    /// Teaches `picture` (an image file's bytes) as `className` on one of `workers`' instances,
    /// writes it to the lessons file and hands the new lessons to every instance.
    /// - Returns: how many lessons the class has now.
    func teach(_ picture: [UInt8], className: String, source: String, workers: InferenceWorkers) -> Result<Int, CorrectionProblem> {
        let sampleFolder = sampleFolder
        let existing: LessonsFile.Reference?
        do {
            // Read only: a correction refused leaves no file behind where there was none.
            existing = access(lessonsPath, F_OK) == 0 ? try LessonsFile(path: lessonsPath, readOnly: true).reference() : nil
        } catch {
            return .failure(.lessons(error))
        }
        // The picture's lesson, and the sample leaves' reference when this is the first lesson,
        // on a model instance (each is reached only from its own thread).
        let offer = workers.runUnlessFull { classifier in
            Corrections.lesson(of: picture, className: className, source: source, reference: existing, sampleFolder: sampleFolder, classifier: classifier)
        }
        let lesson: LessonsFile.NewLesson, reference: LessonsFile.Reference
        switch offer {
        case .refused(let busy): return .failure(.busy(busy))
        case .answered(.failure(let problem)): return .failure(problem)
        case .answered(.success(let made)): (lesson, reference) = made
        }
        return writing.withLock { _ -> Result<Int, CorrectionProblem> in
            do throws(LessonsError) {
                let file = try LessonsFile(path: lessonsPath)
                try file.add([lesson], reference: reference, time: JournalTime.now().iso8601)
                let taught = try file.taughtClasses()
                live.replace(taught)
                return .success(taught?.classes.first { $0.name == className }?.lessons ?? 1)
            } catch {
                return .failure(.lessons(error))
            }
        }
    }

    /// The lesson of `picture`, and the reference to store with it: the file's, or for its first
    /// lesson the sample leaves' in `sampleFolder`, measured with `classifier`.
    private static func lesson(of picture: [UInt8], className: String, source: String, reference: LessonsFile.Reference?, sampleFolder: String?,
                               classifier: Classifier) -> Result<(LessonsFile.NewLesson, LessonsFile.Reference), CorrectionProblem> {
        guard classifier.featureCount != nil else { return .failure(.noFeatures) }
        if let taughtWith = reference?.model, taughtWith != classifier.featureSignature { return .failure(.otherModel(taughtWith)) }
        let result: Classification
        do {
            result = try classifier.classify(bytes: picture)
        } catch {
            return .failure(.unreadable("\(error)"))
        }
        let lesson: LessonsFile.NewLesson
        do {
            lesson = try LessonMaking.lesson(className: className, source: source, result: result, classifier: classifier)
        } catch {
            return .failure(.lessons(error))
        }
        if let reference { return .success((lesson, reference)) }
        guard let sampleFolder else { return .failure(.noSamples) }
        do {
            return .success((lesson, try LessonMaking.sampleReference(folder: sampleFolder, classifier: classifier)))
        } catch {
            return .failure(.lessons(error))
        }
    }

    /// The names taught so far, in the order first taught.
    var taughtNames: [String] { live.lessons?.classes.map(\.name) ?? [] }
}

/// Why a correction was not taught: the log's line, the HTTP status and the page's words.
enum CorrectionProblem: Error, CustomStringConvertible {
    case noName
    case badName(String)
    case noPicture
    case pictureGone(String)
    case unreadable(String)
    case noFeatures
    /// The lessons file was taught with another model (its feature signature).
    case otherModel(String)
    case noSamples
    case lessons(LessonsError)
    case busy(InferenceWorkers.Busy)

    var description: String {
        switch self {
        case .noName: return "the form names no class: field 'class' or 'new'"
        case .badName(let problem): return problem
        case .noPicture: return "the form has no picture: field 'image' (a photo), or 'picture' (live, or a journal picture's address)"
        case .pictureGone(let what): return what
        case .unreadable(let reason): return "not an image PlantLeaf can read: \(reason)"
        case .noFeatures: return "this model has no pooled feature vector: teaching needs one"
        case .otherModel(let model): return "the lessons file was taught with another model (\(model)): serve with that model, or give another --lessons FILE"
        case .noSamples: return "teaching needs the sample leaves (samples/plantvillage) to measure the first lesson against: run make setup"
        case .lessons(let error): return "\(error)"
        case .busy(let busy): return "\(busy.inputs) pictures are being classified or waiting: try again in \(busy.retryAfterSeconds) s"
        }
    }

    var status: Int {
        switch self {
        case .noName, .badName, .noPicture: return 400
        case .pictureGone: return 404
        case .unreadable: return 422
        case .lessons(.notALeaf): return 422
        case .busy: return 503
        case .noFeatures, .otherModel, .noSamples, .lessons: return 500
        }
    }

    /// The page's words for it, a catalogue key.
    var key: String {
        switch self {
        case .noName: return "page.correct.no-name"
        case .badName: return "page.correct.bad-name"
        case .lessons(.notALeaf): return "page.correct.not-a-leaf"
        case .pictureGone: return "page.correct.gone"
        case .busy: return "page.problem.busy"
        default: return "page.correct.problem"
        }
    }
}
