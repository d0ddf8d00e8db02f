import Dispatch
import Glibc

/// What happened to one input of a batch.
public enum BatchOutcome: Sendable {
    case classified(path: String, Classification)
    case failed(path: String, reason: String)
}

/// Classifies a batch on several cores at once: each worker has its own interpreter (LiteRT runs
/// on one compiled model must not overlap) and takes the next file when it is free. Outcomes are
/// delivered in input order, whatever order the workers finish in.
public enum BatchClassifier {
    /// Workers worth running for `inputs` files when each interpreter uses `threads` threads:
    /// one per remaining core, at least one.
    public static func defaultJobs(inputs: Int, threads: Int) -> Int {
        let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        return max(1, min(inputs, cores / max(threads, 1)))
    }

    /// `makeClassifier` is called once per worker. The first worker's classifier is made before
    /// any file is touched, so a bad model or label file fails the batch at once.
    /// `deliver` is called with each outcome in input order, never concurrently.
    public static func run(_ entries: [ImageFiles.Entry], jobs: Int, topK: Int,
                           makeClassifier: @escaping @Sendable () throws(ClassifierSetupError) -> Classifier,
                           deliver: @escaping @Sendable (BatchOutcome) -> Void) throws(ClassifierSetupError) {
        let first = try makeClassifier()
        let state = BatchState(count: entries.count, deliver: deliver)
        let firstClassifier = UncheckedBox(first)
        let workers = max(1, min(jobs, entries.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let classifier: Classifier
            if worker == 0 {
                classifier = firstClassifier.value
            } else {
                do {
                    classifier = try makeClassifier()
                } catch {
                    // The first worker carries on alone: the same model already loaded once.
                    return
                }
            }
            while let index = state.claimNext() {
                let outcome: BatchOutcome
                switch entries[index] {
                case .problem(let path, let reason):
                    outcome = .failed(path: path, reason: reason)
                case .file(let path):
                    do throws(ClassifyError) {
                        outcome = .classified(path: path, try classifier.classify(path: path, topK: topK))
                    } catch {
                        outcome = .failed(path: path, reason: error.reason)
                    }
                }
                state.complete(index, outcome)
            }
        }
    }
}

/// Hands a non-Sendable value to exactly one other thread.
private final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The shared queue position and the in-order delivery of outcomes, behind one lock.
private final class BatchState: @unchecked Sendable {
    private var lock = pthread_mutex_t()
    private var nextToClaim = 0
    private var nextToDeliver = 0
    private var finished: [Int: BatchOutcome] = [:]
    private let count: Int
    private let deliver: @Sendable (BatchOutcome) -> Void

    init(count: Int, deliver: @escaping @Sendable (BatchOutcome) -> Void) {
        self.count = count
        self.deliver = deliver
        pthread_mutex_init(&lock, nil)
    }

    deinit { pthread_mutex_destroy(&lock) }

    func claimNext() -> Int? {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        guard nextToClaim < count else { return nil }
        nextToClaim += 1
        return nextToClaim - 1
    }

    /// Records an outcome and delivers every outcome that is now next in line.
    func complete(_ index: Int, _ outcome: BatchOutcome) {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        finished[index] = outcome
        while let ready = finished.removeValue(forKey: nextToDeliver) {
            deliver(ready)
            nextToDeliver += 1
        }
    }
}
