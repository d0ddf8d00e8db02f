import Glibc
import Synchronization

/// What happened to one input of a batch.
public enum BatchOutcome: Sendable {
    case classified(path: PathName, Classification)
    /// A path that yields nothing to classify (`ImageFiles.Entry.problem`).
    case failed(path: PathName, reason: FileReadError)
    /// A file that could not be classified; the error words its reason in any language.
    case unclassified(path: PathName, ClassifyError)

    public var path: PathName {
        switch self {
        case .classified(let path, _), .failed(let path, _), .unclassified(let path, _): return path
        }
    }
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

    /// Why a batch ran with fewer workers than asked: the first worker that could not be set
    /// up (its classifier or its thread), and how many were running without it.
    public struct ShortOfWorkers: Sendable {
        public var asked: Int
        public var running: Int
        /// Why: the classifier could not be set up, or the thread could not be started.
        public var problem: any WordedError
    }

    /// `makeClassifier` is called once per worker, one after another on the calling thread
    /// before any worker starts: LiteRT's set-up then never overlaps another worker's output,
    /// and a bad model or label file fails the batch (thrown) before any file is touched. When
    /// a later worker cannot be set up, `shortOfWorkers` hears why and the batch runs with the
    /// workers it has.
    /// `deliver` is called with each outcome in input order, never concurrently; returning
    /// false stops the batch: no further input is started, and those in progress are dropped.
    public static func run(_ entries: [ImageFiles.Entry], jobs: Int, topK: Int,
                           makeClassifier: () throws(ClassifierSetupError) -> Classifier,
                           shortOfWorkers: (ShortOfWorkers) -> Void = { _ in },
                           deliver: @escaping @Sendable (BatchOutcome) -> Bool) throws(ClassifierSetupError) {
        let wanted = max(1, min(jobs, entries.count))
        var classifiers = [try makeClassifier()]
        while classifiers.count < wanted {
            do {
                classifiers.append(try makeClassifier())
            } catch {
                shortOfWorkers(ShortOfWorkers(asked: wanted, running: classifiers.count, problem: error))
                break
            }
        }
        let state = BatchState(count: entries.count, deliver: deliver)
        // Each worker borrows one instance for its whole run: there are as many as workers.
        let pool = ClassifierPool(classifiers)
        var threads: [WorkerThread] = []
        // The calling thread is the last worker; the others get threads of their own.
        for _ in 1..<classifiers.count {
            do {
                threads.append(try WorkerThread { pool.withClassifier { work(entries, topK: topK, classifier: $0, state: state) } })
            } catch {
                shortOfWorkers(ShortOfWorkers(asked: wanted, running: threads.count + 1, problem: error))
                break
            }
        }
        pool.withClassifier { work(entries, topK: topK, classifier: $0, state: state) }
        for thread in threads { thread.join() }
    }

    /// Classifies the file at `path`. A name that is not UTF-8 has no String form the
    /// classifier could open, so that file is opened here, by its bytes, and handed over as
    /// the descriptor's /proc/self/fd entry, which names the same file.
    private static func classify(_ path: PathName, with classifier: Classifier, topK: Int) throws(ClassifyError) -> Classification {
        if let text = path.string { return try classifier.classify(path: text, topK: topK) }
        let descriptor = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
        guard descriptor >= 0 else { throw .unreadable(path: path.escaped, reason: .system(SystemError(errno))) }
        defer { close(descriptor) }
        return try classifier.classify(path: "/proc/self/fd/\(descriptor)", topK: topK)
    }

    /// One worker: the next unclaimed input until there are none or delivery stopped the batch.
    private static func work(_ entries: [ImageFiles.Entry], topK: Int, classifier: Classifier, state: BatchState) {
        while let index = state.claimNext() {
            let outcome: BatchOutcome
            switch entries[index] {
            case .problem(let path, let reason):
                outcome = .failed(path: path, reason: reason)
            case .file(let path):
                do throws(ClassifyError) {
                    outcome = .classified(path: path, try classify(path, with: classifier, topK: topK))
                } catch {
                    outcome = .unclassified(path: path, error)
                }
            }
            state.complete(index, outcome)
        }
    }
}

/// The shared queue position and the in-order delivery of outcomes.
private final class BatchState: Sendable {
    private struct Queue {
        var nextToClaim = 0
        var nextToDeliver = 0
        var finished: [Int: BatchOutcome] = [:]
        var stopped = false
    }

    private let queue = Mutex(Queue())
    private let count: Int
    private let deliver: @Sendable (BatchOutcome) -> Bool

    init(count: Int, deliver: @escaping @Sendable (BatchOutcome) -> Bool) {
        self.count = count
        self.deliver = deliver
    }

    func claimNext() -> Int? {
        queue.withLock { queue in
            guard queue.nextToClaim < count, !queue.stopped else { return nil }
            queue.nextToClaim += 1
            return queue.nextToClaim - 1
        }
    }

    /// Records an outcome and delivers every outcome that is now next in line.
    func complete(_ index: Int, _ outcome: BatchOutcome) {
        queue.withLock { queue in
            guard !queue.stopped else { return }
            queue.finished[index] = outcome
            while let ready = queue.finished.removeValue(forKey: queue.nextToDeliver) {
                queue.nextToDeliver += 1
                guard deliver(ready) else {
                    queue.stopped = true
                    return
                }
            }
        }
    }
}
