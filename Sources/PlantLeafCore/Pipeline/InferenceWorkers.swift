import CScheduler

/// Model instances each on a thread of its own, pinned to a CPU of its own where the process may
/// use as many CPUs as there are instances, fed by one queue: a caller hands its work over and
/// waits for the answer. An instance then stays on one thread and one core, with its weights and
/// buffers in that core's caches, where lending it to whichever thread called (`ClassifierPool`)
/// moved it from core to core with the callers.
///
/// Sendable unchecked because a Classifier is not Sendable: each one is reached only from its
/// own worker thread, which the compiler cannot see through the queue.
package final class InferenceWorkers: @unchecked Sendable {
    /// One caller's work. Its closure is taken out before the worker says it is done, so the
    /// caller's non-escaping closure is no longer referenced once the caller returns.
    private final class Job: @unchecked Sendable {
        private var work: ((Classifier) -> Void)?
        private let done = Lock(false)

        init(_ work: @escaping (Classifier) -> Void) { self.work = work }

        func run(on classifier: Classifier) {
            do {
                let body = work
                work = nil
                body?(classifier)
            }
            done.withLock { finished in
                finished = true
                done.signal()
            }
        }

        func wait() { done.withLock(waitingUntil: { $0 }) { _ in } }
    }

    private struct Queue: Sendable {
        var jobs: [Job] = []
        var stopping = false
    }

    /// A classifier crossing to its worker thread, never used by the thread that made it again.
    private final class Instance: @unchecked Sendable {
        let classifier: Classifier
        init(_ classifier: Classifier) { self.classifier = classifier }
    }

    private let queue = Lock(Queue())
    private var threads: [WorkerThread] = []
    /// The CPU each worker was pinned to, in order; empty when they run wherever the system puts them.
    package let pinnedCPUs: [Int]

    /// Starts one worker per classifier.
    /// - Throws: `ThreadStartError` when a thread cannot be started (the ones started are stopped).
    package init(_ classifiers: [Classifier]) throws(ThreadStartError) {
        let allowed = InferenceWorkers.allowedCPUs()
        pinnedCPUs = classifiers.count > 1 && allowed.count >= classifiers.count ? Array(allowed.prefix(classifiers.count)) : []
        for (index, classifier) in classifiers.enumerated() {
            let instance = Instance(classifier), queue = queue
            let cpu = pinnedCPUs.isEmpty ? nil : pinnedCPUs[index]
            do {
                threads.append(try WorkerThread { InferenceWorkers.work(instance.classifier, queue: queue, cpu: cpu) })
            } catch {
                stop()
                throw error
            }
        }
    }

    deinit { stop() }

    /// Hands `body` to the next free worker and waits for what it returns.
    package func run<Result>(_ body: (Classifier) -> Result) -> Result {
        withoutActuallyEscaping(body) { body in
            var result: Result?
            let job = Job { result = body($0) }
            queue.withLock { queue in
                queue.jobs.append(job)
                self.queue.signal()
            }
            job.wait()
            return result!
        }
    }

    private static func work(_ classifier: Classifier, queue: Lock<Queue>, cpu: Int?) {
        if var cpu = cpu.map(Int32.init) { _ = pl_set_cpu_affinity(&cpu, 1) }
        while let job = queue.withLock(waitingUntil: { !$0.jobs.isEmpty || $0.stopping }, { queue in
            queue.jobs.isEmpty ? nil : queue.jobs.removeFirst()
        }) {
            job.run(on: classifier)
        }
    }

    /// Ends the workers once the queue is empty. Only when no caller waits (deinit, or set-up
    /// failing part-way).
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
