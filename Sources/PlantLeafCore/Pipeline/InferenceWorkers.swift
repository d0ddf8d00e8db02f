import CScheduler
import PlantLeafSupport

/// Model instances each on a thread of its own, pinned to a CPU of its own where the process may
/// use as many CPUs as there are instances, fed by one bounded queue that every front end shares:
/// classify's batch, serve's uploads and the camera's readings. An instance then stays on one
/// thread and one core, with its weights and buffers in that core's caches, and a machine runs
/// as many instances as it was given, whoever asks.
///
/// The queue holds `capacity` inputs (waiting or being classified): past that a batch waits for
/// room (`run`, `enqueue`), an upload is refused at once (`runUnlessFull`), and a camera reading
/// goes ahead of everything waiting (`runAhead`), so uploads never starve the camera.
///
/// Sendable unchecked because a Classifier is not Sendable: each one is reached only from its
/// own worker thread, which the compiler cannot see through the queue.
package final class InferenceWorkers: @unchecked Sendable {
    /// One input's work. Its closure is taken out before the worker says it is done, so a
    /// waiting caller's non-escaping closure is no longer referenced once the caller returns.
    private final class Job: @unchecked Sendable {
        private var work: ((Classifier) -> Void)?
        private let done = Lock(false)
        /// Whether it went ahead of the inputs waiting (`runAhead`).
        var wentAhead = false

        init(_ work: @escaping (Classifier) -> Void) { self.work = work }

        func run(on classifier: Classifier) {
            let body = work
            work = nil
            body?(classifier)
        }

        /// Tells the caller waiting that the job is done: after the queue has counted it, so
        /// the caller that returns finds it counted.
        func finish() {
            done.withLock { finished in
                finished = true
                done.signal()
            }
        }

        func wait() { done.withLock(waitingUntil: { $0 }) { _ in } }
    }

    private struct Queue: Sendable {
        var waiting: [Job] = []
        var running = 0
        /// How long the last input took on its instance, waiting not included: the queue's
        /// own measure of how soon there is room again.
        var lastJobSeconds = 0.0
        var counts = Counts()
        var stopping = false

        var inputs: Int { waiting.count + running }
    }

    /// Inputs classified so far: those that went ahead of the others (the camera's readings), and
    /// those that joined the back (uploads, a batch's files).
    package struct Counts: Sendable, Equatable {
        package var ahead: Int
        package var behind: Int

        package init(ahead: Int = 0, behind: Int = 0) {
            self.ahead = ahead
            self.behind = behind
        }
    }

    /// A full queue's answer: the inputs in it and when to try again.
    package struct Busy: Sendable, Equatable {
        package var inputs: Int
        package var retryAfterSeconds: Int
    }

    /// What became of an input offered with `runUnlessFull`.
    package enum Offer<Answer> {
        case answered(Answer)
        case refused(Busy)
    }

    /// Where a job joins the queue.
    private enum Place {
        /// Behind everything waiting, once there is room.
        case back
        /// Behind everything waiting, or refused when there is no room.
        case backUnlessFull
        /// Ahead of everything waiting, room or not.
        case front
    }

    /// A classifier crossing to its worker thread, never used by the thread that made it again.
    private final class Instance: @unchecked Sendable {
        let classifier: Classifier
        init(_ classifier: Classifier) { self.classifier = classifier }
    }

    /// The workers' queue. One condition serves the workers waiting for jobs, the callers
    /// waiting for room and `waitUntilIdle`, so every change wakes them all.
    private let queue = Lock(Queue())
    private var threads: [WorkerThread] = []
    /// The CPU each worker was pinned to, in order; empty when they run wherever the system puts them.
    package let pinnedCPUs: [Int]
    /// Inputs waiting or being classified before the queue is full.
    package let capacity: Int
    /// Why fewer workers run than classifiers were given: the first thread that could not be started.
    package private(set) var threadStartFailure: ThreadStartError?

    /// The instances running, one per worker thread.
    package let instances: Int

    /// Inputs waiting or being classified per instance before the queue is full: beyond this a
    /// phone waits longer for its answer than it would to try again.
    package static let inputsPerInstance = 4

    /// Starts one worker per classifier; the queue takes `inputsPerInstance` inputs per worker
    /// that runs. A thread that cannot be started leaves the workers started before it running,
    /// and says why in `threadStartFailure`.
    /// - Throws: `ThreadStartError` when not even the first thread can be started.
    package init(_ classifiers: [Classifier], inputsPerInstance: Int = InferenceWorkers.inputsPerInstance) throws(ThreadStartError) {
        let allowed = InferenceWorkers.allowedCPUs()
        pinnedCPUs = classifiers.count > 1 && allowed.count >= classifiers.count ? Array(allowed.prefix(classifiers.count)) : []
        var started: [WorkerThread] = []
        for (index, classifier) in classifiers.enumerated() {
            let instance = Instance(classifier), queue = queue
            let cpu = pinnedCPUs.isEmpty ? nil : pinnedCPUs[index]
            do {
                started.append(try WorkerThread { InferenceWorkers.work(instance.classifier, queue: queue, cpu: cpu) })
            } catch {
                threadStartFailure = error
                break
            }
        }
        threads = started
        instances = started.count
        capacity = max(1, started.count) * max(1, inputsPerInstance)
        if let threadStartFailure, started.isEmpty { throw threadStartFailure }
    }

    deinit { stop() }

    /// Waits for room, hands `body` to the next free worker behind the inputs waiting, and
    /// waits for what it returns.
    package func run<Result>(_ body: (Classifier) -> Result) -> Result {
        runWaiting(body, place: .back)
    }

    /// Hands `body` to the next free worker ahead of every input waiting, even when the queue
    /// is full, and waits for what it returns: for a caller with one input at a time that must
    /// not wait behind a crowd (the camera's reading of its freshest frame).
    package func runAhead<Result>(_ body: (Classifier) -> Result) -> Result {
        runWaiting(body, place: .front)
    }

    /// As `run`, but refused at once when the queue is full: then what the queue holds and when
    /// to try again, and `body` never runs.
    package func runUnlessFull<Result>(_ body: (Classifier) -> Result) -> Offer<Result> {
        withoutActuallyEscaping(body) { body in
            var result: Result?
            let job = Job { result = body($0) }
            if let refusal = add(job, place: .backUnlessFull) { return .refused(refusal) }
            job.wait()
            return .answered(result!)
        }
    }

    /// Waits for room and queues `work` behind the inputs waiting, without waiting for it to
    /// run: a batch keeps the queue filled from one thread.
    package func enqueue(_ work: @escaping @Sendable (Classifier) -> Void) {
        _ = add(Job(work), place: .back)
    }

    /// Waits until no input is waiting or being classified.
    package func waitUntilIdle() {
        queue.withLock(waitingUntil: { $0.inputs == 0 }) { _ in }
    }

    /// Inputs waiting or being classified now.
    package var inputs: Int { queue.withLock { $0.inputs } }

    /// Inputs classified so far, by where they joined the queue.
    package var counts: Counts { queue.withLock { $0.counts } }

    /// What a refusal would say now: nil while there is room.
    package var busy: Busy? {
        queue.withLock { queue in queue.inputs >= capacity ? busy(queue) : nil }
    }

    /// A full queue's refusal: the time to try again is the inputs in the queue shared out over
    /// the instances, at the last input's pace, at least a second.
    private func busy(_ queue: Queue) -> Busy {
        let seconds = Double(queue.inputs) * queue.lastJobSeconds / Double(max(1, instances))
        return Busy(inputs: queue.inputs, retryAfterSeconds: max(1, Int(seconds.rounded(.up))))
    }

    private func runWaiting<Result>(_ body: (Classifier) -> Result, place: Place) -> Result {
        withoutActuallyEscaping(body) { body in
            var result: Result?
            let job = Job { result = body($0) }
            _ = add(job, place: place)
            job.wait()
            return result!
        }
    }

    /// Queues `job` at `place`; the refusal when it found no room and was not to wait for it.
    private func add(_ job: Job, place: Place) -> Busy? {
        let capacity = capacity, lock = queue
        switch place {
        case .front:
            job.wentAhead = true
            lock.withLock { queue in
                queue.waiting.insert(job, at: 0)
                lock.broadcast()
            }
            return nil
        case .back:
            lock.withLock(waitingUntil: { $0.inputs < capacity }) { queue in
                queue.waiting.append(job)
                lock.broadcast()
            }
            return nil
        case .backUnlessFull:
            return lock.withLock { queue in
                guard queue.inputs < capacity else { return busy(queue) }
                queue.waiting.append(job)
                lock.broadcast()
                return nil
            }
        }
    }

    private static func work(_ classifier: Classifier, queue: Lock<Queue>, cpu: Int?) {
        if var cpu = cpu.map(Int32.init) { _ = pl_set_cpu_affinity(&cpu, 1) }
        while let job = queue.withLock(waitingUntil: { !$0.waiting.isEmpty || $0.stopping }, { queue -> Job? in
            guard !queue.waiting.isEmpty else { return nil }
            queue.running += 1
            return queue.waiting.removeFirst()
        }) {
            let start = MonotonicClock.nanoseconds()
            job.run(on: classifier)
            let seconds = MonotonicClock.milliseconds(since: start) / 1000
            queue.withLock { state in
                state.running -= 1
                state.lastJobSeconds = seconds
                if job.wentAhead { state.counts.ahead += 1 } else { state.counts.behind += 1 }
                queue.broadcast()
            }
            job.finish()
        }
    }

    /// Ends the workers once the queue is empty. Only when no caller waits (deinit).
    private func stop() {
        queue.withLock { queue in
            queue.stopping = true
            self.queue.broadcast()
        }
        for thread in threads { thread.join() }
        threads = []
    }

    /// The CPUs this process may run on, ascending.
    private static func allowedCPUs() -> [Int] {
        var cpus = [Int32](repeating: 0, count: 1024)
        let count = Int(pl_allowed_cpus(&cpus, Int32(cpus.count)))
        return count > 0 ? cpus.prefix(min(count, cpus.count)).map(Int.init) : []
    }
}
