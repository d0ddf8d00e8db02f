import PlantLeafCore

/// The event trackers of a journal's sources, each started from the event its source left
/// lasting (so a restarted camera or a second import carries on), writing the events that begin.
public struct EventFollower: Sendable {
    public let readingsToHold: Int
    private var trackers: [String: EventTracker] = [:]

    public init(readingsToHold: Int) {
        self.readingsToHold = readingsToHold
    }

    /// Follows `record` of `source` at `time`, writing to `journal` the event it establishes;
    /// `picture` is asked for only when the reading may start one. Returns the source's
    /// established state after it, and whether an event began.
    public mutating func follow(_ record: ReadingRecord, source: String, time: JournalTime, in journal: Journal,
                                picture: @Sendable () -> [UInt8]?) throws(JournalError) -> (established: JournalState?, began: Bool) {
        var tracker: EventTracker
        if let known = trackers[source] {
            tracker = known
        } else {
            tracker = EventTracker(readingsToHold: readingsToHold, established: try journal.lastingEvent(source: source)?.state)
        }
        let beginning = tracker.observe(JournalState(record), time: time, picture: picture)
        if let beginning {
            try journal.beginEvent(source: source, state: beginning.state, start: beginning.start, picture: beginning.picture)
        }
        trackers[source] = tracker
        return (tracker.established, beginning != nil)
    }
}
