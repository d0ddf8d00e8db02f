/// Model instances lent out one caller at a time: at most `count` inputs are decoded and run at
/// once, and the other callers wait their turn (a batch's workers, a server's uploads).
///
/// Sendable unchecked because a Classifier is not Sendable (its interpreter must never run on
/// two threads at once) yet crosses threads here: the pool lends each instance to one caller at a
/// time, taking it from the idle list under the lock and putting it back when the caller is done,
/// and the compiler cannot see that hand-over.
package final class ClassifierPool: @unchecked Sendable {
    private let idle: Lock<[Classifier]>

    package init(_ classifiers: [Classifier]) {
        idle = Lock(classifiers)
    }

    /// Runs `body` with an instance of its own, waiting for one to be free.
    package func withClassifier<Result>(_ body: (Classifier) -> Result) -> Result {
        let classifier = idle.withLock(waitingUntil: { !$0.isEmpty }) { $0.removeLast() }
        defer {
            idle.withLock { classifiers in
                classifiers.append(classifier)
                idle.signal()
            }
        }
        return body(classifier)
    }
}
