import PlantLeafCore

/// A span of time over which one source's readings held one state: the same verdict and, for a
/// diagnosis, the same class. It starts at the first of the readings that established it (see
/// `EventTracker`) and ends when another state is established; `end` is nil while it lasts.
public struct JournalEvent: Sendable, Equatable {
    public var id: Int64
    public var source: String
    public var state: JournalState
    public var start: JournalTime
    public var end: JournalTime?
    /// Whether the event has a picture, the frame of its first reading as JPEG.
    public var hasPicture: Bool
    /// The time its camera's view was blocked (no leaf or no picture) in gaps that ended.
    public var blockedMilliseconds: Int64 = 0
    /// When the gap going on began: the view is blocked now.
    public var blockedSince: JournalTime?

    /// How long it lasted (until `now` while it lasts), in milliseconds.
    public func durationMilliseconds(now: JournalTime) -> Int64 { (end ?? now).milliseconds - start.milliseconds }

    /// Whether the view is blocked now: the event lasts, through a gap going on.
    public var viewBlockedNow: Bool { blockedSince != nil && end == nil }

    /// How long of it the view was blocked, the gap going on counted until `now`; never more
    /// than the event lasted.
    public func blockedMilliseconds(now: JournalTime) -> Int64 {
        let going = blockedSince.map { max(0, (end ?? now).milliseconds - $0.milliseconds) } ?? 0
        return min(blockedMilliseconds + going, max(0, durationMilliseconds(now: now)))
    }
}

/// What a reading says about the plant, as events tell states apart: its verdict, and the class
/// when the verdict is a diagnosis.
public struct JournalState: Sendable, Equatable, Hashable {
    public var verdict: Verdict
    /// The diagnosed class's label; nil for the other verdicts.
    public var label: String?
    /// Its index in the model's labels.
    public var classIndex: Int?

    public init(verdict: Verdict, label: String? = nil, classIndex: Int? = nil) {
        self.verdict = verdict
        self.label = verdict == .diagnosis ? label : nil
        self.classIndex = verdict == .diagnosis ? classIndex : nil
    }

    /// The state of `record`.
    public init(_ record: ReadingRecord) {
        self.init(verdict: record.verdict, label: record.top.first?.label, classIndex: record.top.first?.index)
    }

    /// A diagnosis of a class that is not a healthy one.
    public var isProblem: Bool { Labels.isProblem(verdict: verdict, label: label) }

    /// No leaf or no picture in view: such a reading says nothing about the plant (a cat, a
    /// hand, a dark frame in front of the leaf), so it neither ends an event nor starts one.
    public var saysNothingAboutThePlant: Bool { verdict == .noLeaf || verdict == .noPicture }
}
