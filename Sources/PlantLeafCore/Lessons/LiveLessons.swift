import Synchronization

/// Lessons that change while the classifiers run: a correction on serve's page is taught at once,
/// and every classifier given this reads the newest lessons before its next photo.
public final class LiveLessons: Sendable {
    private let current: Mutex<TaughtClasses?>

    public init(_ lessons: TaughtClasses?) { current = Mutex(lessons) }

    /// The lessons now; nil when there are none.
    public var lessons: TaughtClasses? { current.withLock { $0 } }

    /// From the next photo on, every classifier uses `lessons`.
    public func replace(_ lessons: TaughtClasses?) { current.withLock { $0 = lessons } }
}
