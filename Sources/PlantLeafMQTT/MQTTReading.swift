import PlantLeafCore

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
    public var resultPayload: [UInt8] { Array(record.json.utf8) }

    public var verdict: Verdict { record.verdict }
    /// Best first; the first ``attributeClassCount`` go into the attributes.
    public var top: [ScoredClass] { record.top }

    /// The state a grower reads: the class's readable name for a diagnosis ("Tomato — Early
    /// blight"), the verdict in words otherwise ("uncertain", "no leaf", "no picture"), so that a
    /// reading the model should not be trusted on never looks like a diagnosis.
    public var state: String {
        if verdict == .diagnosis, let best = top.first { return Labels.displayName(best.label) }
        return String(verdict.rawValue.map { $0 == "-" ? " " : $0 })
    }

    /// Whether a problem has held as the journal's events hold one: set by a camera that keeps a
    /// journal, so the problem sensor turns on and off with the events (one odd frame turns
    /// nothing on); nil goes by this reading alone.
    public var establishedProblem: Bool?

    /// Whether the problem sensor is on: `establishedProblem` when set, else whether this reading
    /// is a diagnosis of a class that is not a healthy one.
    public var isProblem: Bool { establishedProblem ?? Labels.isProblem(verdict: verdict, label: top.first?.label) }

    /// The state sensor's attributes: the verdict, why it is not a diagnosis and what to do, the
    /// generalist check's leaf-likeness (null when it was skipped), the time the frame was taken
    /// (for the "last seen" sensor) and the top classes by readable name and label, with scores
    /// from 0 to 1.
    public var attributes: String {
        var object = JSONObject()
        object.add("verdict", verdict.rawValue)
        if let reason = record.reason {
            object.add("reason", reason.rawValue)
            object.add("advice", reason.advice)
        }
        switch record.secondOpinion {
        case .notRun: break
        case .leafLikeness(let likeness): object.add("leaf_likeness", likeness, decimals: 4)
        case .skipped(let why):
            object.addNull("leaf_likeness")
            object.add("leaf_likeness_skipped", why)
        }
        if let time = record.time { object.add("time", time) }
        object.add("top", objects: top.prefix(MQTTReading.attributeClassCount).map { scored in
            var entry = JSONObject()
            entry.add("name", Labels.displayName(scored.label))
            entry.add("label", scored.label)
            entry.add("score", scored.score, decimals: 4)
            return entry
        })
        return object.text
    }
}
