import PlantLeafCore

/// What one reading changes in its source's events, in the order the journal writes it.
public enum EventChange: Sendable, Equatable {
    /// The blocked view of the lasting event ends: its leaf is seen again.
    case gapEnds(at: JournalTime)
    /// An event begins (and the one that lasted ends there).
    case begins(EventTracker.Beginning)
    /// The view of the lasting event's leaf is blocked from this reading on.
    case gapBegins(at: JournalTime)
}

extension EventTracker {
    /// Observes one reading in `state` at `time` (see `observe`) and says what it changes.
    public mutating func changes(_ state: JournalState, time: JournalTime, picture: () -> [UInt8]?) -> [EventChange] {
        let wasBlocked = blockedSince != nil
        let beginning = observe(state, time: time, picture: picture)
        var changes: [EventChange] = []
        if wasBlocked && blockedSince == nil { changes.append(.gapEnds(at: time)) }
        if let beginning { changes.append(.begins(beginning)) }
        if !wasBlocked, let since = blockedSince { changes.append(.gapBegins(at: since)) }
        return changes
    }
}

extension Journal {
    /// Writes `change` to `source`'s events.
    public func apply(_ change: EventChange, source: String) throws(JournalError) {
        switch change {
        case .gapEnds(let time): try endGap(source: source, at: time)
        case .begins(let beginning):
            try shiftBlockedTime(source: source, by: -beginning.blockedMilliseconds)
            try beginEvent(source: source, state: beginning.state, start: beginning.start, picture: beginning.picture)
            try shiftBlockedTime(source: source, by: beginning.blockedMilliseconds)
        case .gapBegins(let time): try beginGap(source: source, at: time)
        }
    }
}

/// The event trackers of a journal's sources, each started from the event its source left
/// lasting (so a restarted camera or a second import carries on), writing the events that begin.
public struct EventFollower: Sendable {
    public let readingsToHold: Int
    private var trackers: [String: EventTracker] = [:]

    public init(readingsToHold: Int) {
        self.readingsToHold = readingsToHold
    }

    /// Follows `record` of `source` at `time`, writing to `journal` the event it establishes and
    /// the gaps of a blocked view; `picture` is asked for only when the reading may start one.
    /// Returns the source's established state after it, and whether an event began.
    public mutating func follow(_ record: ReadingRecord, source: String, time: JournalTime, in journal: Journal,
                                picture: @Sendable () -> [UInt8]?) throws(JournalError) -> (established: JournalState?, began: Bool) {
        var tracker: EventTracker
        if let known = trackers[source] {
            tracker = known
        } else {
            tracker = EventTracker(readingsToHold: readingsToHold, lasting: try journal.lastingEvent(source: source))
        }
        let changes = tracker.changes(JournalState(record), time: time, picture: picture)
        for change in changes { try journal.apply(change, source: source) }
        trackers[source] = tracker
        return (tracker.established, changes.contains { if case .begins = $0 { true } else { false } })
    }
}
