import PlantLeafCore
import PlantLeafSupport

/// One classification as the publisher sends it: the machine-readable record for the result topic,
/// and what Home Assistant shows, worded here from the verdict and the top classes.
public struct MQTTReading: Sendable, Equatable {
    /// The camera's record of the reading, published to the result topic as its JSON line.
    public var record: ReadingRecord
    /// The picture the reading was made from, as JPEG bytes, for the image entity; nil sends none.
    public var frameJPEG: [UInt8]?

    /// Classes listed in the attributes: enough to see what else the model considered.
    public static let attributeClassCount = 3

    public init(record: ReadingRecord, frameJPEG: [UInt8]? = nil) {
        self.record = record
        self.frameJPEG = frameJPEG
    }

    /// What the result topic carries: the record's JSON line, as `camera` prints and logs it.
    public func resultPayload(in catalogue: Catalogue) -> [UInt8] { Array(record.json(in: catalogue).utf8) }

    public var verdict: Verdict { record.verdict }
    /// Best first; the first ``attributeClassCount`` go into the attributes.
    public var top: [ScoredClass] { record.top }

    /// The state a grower reads: the class's readable name for a diagnosis ("Tomato — Early
    /// blight"), the verdict in words otherwise ("uncertain", "no leaf", "no picture"), so that a
    /// reading the model should not be trusted on never looks like a diagnosis. Always in
    /// English, whatever the language: automations compare it; the "display" attribute has it
    /// in the configured language.
    public var state: String {
        if verdict == .diagnosis, let best = top.first { return Catalogue.english.className(best.label) }
        return String(verdict.rawValue.map { $0 == "-" ? " " : $0 })
    }

    /// The state in `catalogue`'s language: the class's name for a diagnosis, the verdict's
    /// heading otherwise.
    public func display(in catalogue: Catalogue) -> String {
        if verdict == .diagnosis, let best = top.first { return catalogue.className(best.label) }
        return catalogue.heading(verdict)
    }

    /// Whether a problem has held as the journal's events hold one: set by a camera that keeps a
    /// journal, so the problem sensor turns on and off with the events (one odd frame turns
    /// nothing on); nil goes by this reading alone.
    public var establishedProblem: Bool?
    /// Whether the view of the lasting event's leaf is blocked (the reading sees no leaf or no
    /// picture, and the event goes on through it): set with `establishedProblem`, an attribute
    /// so an automation can tell "still diseased, but not seen now" from a fresh reading.
    public var viewBlocked: Bool?

    /// Whether the problem sensor is on: `establishedProblem` when set, else whether this reading
    /// is a diagnosis of a class that is not a healthy one.
    public var isProblem: Bool { establishedProblem ?? Labels.isProblem(verdict: verdict, label: top.first?.label) }

    /// What of the attributes holds while the reading's state does, for the Reading's and the
    /// Problem's attributes in Home Assistant: the state in `catalogue`'s language ("display"),
    /// the verdict, reason, advice and where the answer came from, whether the view is blocked,
    /// and the top classes by name and label. No time, leaf-likeness or score, which change at
    /// every reading: Home Assistant's recorder writes a row each time an entity's attributes
    /// change, so with them it would write one for every reading.
    public func details(in catalogue: Catalogue) -> String {
        var steady = record
        steady.time = nil
        steady.secondOpinion = .notRun
        return members(of: steady, scores: false, in: catalogue)
    }

    /// The state sensor's attributes: the state in `catalogue`'s language ("display"), the
    /// record's members with a place in the MQTT attributes (`ReadingRecord.fields`: the verdict,
    /// why it is not a diagnosis and what to do, the generalist check's leaf-likeness, null when
    /// it was skipped, the time the frame was taken, for the "last seen" sensor, and where the
    /// answer came from, the model or the grower's lessons with the taught class), whether the
    /// view is blocked (with a journal), and the top
    /// classes by readable name and label, with scores from 0 to 1.
    public func attributes(in catalogue: Catalogue) -> String {
        members(of: record, scores: true, in: catalogue)
    }

    /// `record`'s members with a place in the MQTT attributes, the display, the blocked view and
    /// the top classes (with their scores when `scores`), as one JSON object.
    private func members(of record: ReadingRecord, scores: Bool, in catalogue: Catalogue) -> String {
        var object = JSONObject()
        object.add("display", display(in: catalogue))
        record.addMembers(to: &object, placedBy: \.mqtt, in: catalogue)
        if let viewBlocked { object.add("view_blocked", viewBlocked) }
        object.add("top", objects: top.prefix(MQTTReading.attributeClassCount).map { scored in
            var entry = JSONObject()
            entry.add("name", catalogue.className(scored.label))
            entry.add("label", scored.label)
            if scores { entry.add("score", scored.score, decimals: 4) }
            return entry
        })
        return object.text
    }
}
