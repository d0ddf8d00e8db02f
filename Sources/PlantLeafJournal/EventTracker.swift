/// Turns one source's readings into events with hysteresis: a state (verdict, and class for a
/// diagnosis) other than the established one must hold for `readingsToHold` readings in a row
/// before it becomes an event, so one odd frame makes none. The event then starts at the first
/// of those readings, with its frame as the picture, and the event before ends there.
///
/// Readings that see no leaf or no picture say nothing about the plant: while an event of a
/// leaf seen lasts they are a gap in it (`blockedSince`), neither ending it nor counting towards
/// or against the state that would replace it; only N readings of the leaf seen in another state
/// end it. Before any event, or while one of no leaf lasts, they are states as any other.
public struct EventTracker: Sendable {
    /// The default N: three readings in a row, three minutes at a reading a minute.
    public static let defaultReadingsToHold = 3
    public static let readingsToHoldRange = 1...1000

    public let readingsToHold: Int
    /// The state of the event that lasts; nil before the first.
    public private(set) var established: JournalState?
    /// When the lasting event began, when known.
    public private(set) var establishedSince: JournalTime?
    /// When the view of the lasting event's leaf was blocked, while it is.
    public private(set) var blockedSince: JournalTime?
    private var candidate: Candidate?

    /// A state seen but not yet held long enough.
    private struct Candidate: Sendable {
        var state: JournalState
        var start: JournalTime
        var picture: [UInt8]?
        var count: Int
        /// The blocked view within it, from its start: the event it becomes has it, not the one it ends.
        var blocked: Int64 = 0
    }

    /// What `observe` asks the journal to write: an event that begins.
    public struct Beginning: Sendable, Equatable {
        public var state: JournalState
        public var start: JournalTime
        public var picture: [UInt8]?
        /// The time the view was blocked between `start` and the reading that established it, in
        /// milliseconds: it moves from the event that ends at `start` to this one.
        public var blockedMilliseconds: Int64

        public init(state: JournalState, start: JournalTime, picture: [UInt8]?, blockedMilliseconds: Int64 = 0) {
            self.state = state
            self.start = start
            self.picture = picture
            self.blockedMilliseconds = blockedMilliseconds
        }
    }

    public init(readingsToHold: Int = EventTracker.defaultReadingsToHold, established: JournalState? = nil, establishedSince: JournalTime? = nil,
                blockedSince: JournalTime? = nil) {
        self.readingsToHold = max(1, readingsToHold)
        self.established = established
        self.establishedSince = establishedSince
        self.blockedSince = established == nil ? nil : blockedSince
    }

    /// Carries on from `event`, the one its source left lasting (nil: none).
    public init(readingsToHold: Int, lasting event: JournalEvent?) {
        self.init(readingsToHold: readingsToHold, established: event?.state, establishedSince: event?.start, blockedSince: event?.blockedSince)
    }

    /// Takes one reading in `state` at `time`; `picture` is asked for only when the reading may
    /// start an event. Returns the event that begins, when this reading establishes one.
    public mutating func observe(_ state: JournalState, time: JournalTime, picture: () -> [UInt8]?) -> Beginning? {
        if state.saysNothingAboutThePlant, let established, !established.saysNothingAboutThePlant {
            if blockedSince == nil { blockedSince = time }
            return nil
        }
        let gap = blockedSince.map { max(0, time.milliseconds - $0.milliseconds) } ?? 0
        blockedSince = nil
        if state == established {
            candidate = nil
            return nil
        }
        if candidate?.state == state {
            candidate?.count += 1
            candidate?.blocked += gap
        } else {
            candidate = Candidate(state: state, start: time, picture: picture(), count: 1)
        }
        guard let held = candidate, held.count >= readingsToHold else { return nil }
        established = state
        establishedSince = held.start
        candidate = nil
        return Beginning(state: held.state, start: held.start, picture: held.picture, blockedMilliseconds: held.blocked)
    }
}
