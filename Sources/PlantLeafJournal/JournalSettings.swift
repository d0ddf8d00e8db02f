/// How a process writes its journal: where, how events are made and what is kept.
public struct JournalSettings: Sendable, Equatable {
    public var path: String
    /// N: readings in a row a new state must hold to become an event.
    public var eventReadings: Int
    public var retention: RetentionPolicy

    public init(path: String, eventReadings: Int = EventTracker.defaultReadingsToHold, retention: RetentionPolicy = RetentionPolicy()) {
        self.path = path
        self.eventReadings = eventReadings
        self.retention = retention
    }
}
