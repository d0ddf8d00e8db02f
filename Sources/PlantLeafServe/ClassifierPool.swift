import PlantLeafCore

/// The model instances uploads are classified on: one upload per instance at a time, so at most
/// `count` are decoded and run at once and the rest wait their turn on their own connections.
final class ClassifierPool: @unchecked Sendable {
    private let lock = Lock()
    private var idle: [Classifier]
    let count: Int

    init(_ classifiers: [Classifier]) {
        idle = classifiers
        count = classifiers.count
    }

    /// Runs `body` with an instance of its own, waiting for one to be free.
    func withClassifier<Result>(_ body: (Classifier) -> Result) -> Result {
        let classifier: Classifier = lock.withLock {
            while idle.isEmpty { lock.wait() }
            return idle.removeLast()
        }
        defer {
            lock.withLock {
                idle.append(classifier)
                lock.signal()
            }
        }
        return body(classifier)
    }
}
