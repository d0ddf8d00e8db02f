import CScheduler
import Glibc
import PlantLeafCore
import PlantLeafSupport
import PlantLeafTestSupport
import Testing

/// The model instances on threads of their own: callers on many threads get the answers a
/// classifier gives directly, each instance always runs on the same thread (never the caller's),
/// and, where the process may use as many CPUs as there are instances, on one CPU of its own.
/// Their queue is bounded: a full queue refuses an upload at once, a batch waits for room, and
/// the camera's reading goes ahead of everything waiting.
@Suite struct InferenceWorkersTests {
    /// Where one instance ran: its threads, each run's allowed CPUs, and whether any was the caller's.
    struct Use: Sendable {
        var threads: Set<UInt> = []
        var cpus: Set<[Int32]> = []
        var onCallersThread = false
    }

    @Test func eachInstanceStaysOnItsOwnPinnedThreadAndAnswersAsDirectly() throws {
        let options = TestPaths.classifierOptions()
        let workers = try InferenceWorkers([try Classifier(options: options), try Classifier(options: options)])
        let leaves = [TestPaths.appleScabLeaf, TestPaths.healthyTomatoLeaf]
        let direct = try Classifier(options: options)
        let expected = try leaves.map { try direct.classify(path: $0).top.first?.label }
        // Per instance: the threads it ran on, and the CPUs each of those threads was allowed.
        let seen = Lock<[ObjectIdentifier: Use]>([:])
        let answers = Lock<[String?]>([])
        var callers: [WorkerThread] = []
        for caller in 0..<4 {
            callers.append(try WorkerThread {
                for index in 0..<6 {
                    let callerThread = UInt(pthread_self())
                    let label = workers.run { classifier -> String? in
                        var cpus = [Int32](repeating: 0, count: 256)
                        let count = Int(pl_allowed_cpus(&cpus, 256))
                        let thread = UInt(pthread_self())
                        seen.withLock { seen in
                            var entry = seen[ObjectIdentifier(classifier)] ?? Use()
                            entry.threads.insert(thread)
                            entry.cpus.insert(Array(cpus.prefix(max(count, 0))))
                            entry.onCallersThread = entry.onCallersThread || thread == callerThread
                            seen[ObjectIdentifier(classifier)] = entry
                        }
                        return try? classifier.classify(path: leaves[(caller + index) % 2]).top.first?.label
                    }
                    answers.withLock { $0.append(label == expected[(caller + index) % 2] ? label : nil) }
                }
            })
        }
        for caller in callers { caller.join() }
        let answered = answers.withLock { $0 }
        #expect(answered.count == 24 && answered.allSatisfy { $0 != nil })
        let instances = seen.withLock { $0 }
        #expect(instances.count <= 2 && instances.values.allSatisfy { $0.threads.count == 1 && !$0.onCallersThread })
        var allowed = [Int32](repeating: 0, count: 256)
        let allowedCount = Int(pl_allowed_cpus(&allowed, 256))
        if allowedCount >= 2 {
            #expect(workers.pinnedCPUs == allowed.prefix(2).map(Int.init))
            #expect(instances.values.allSatisfy { $0.cpus.count == 1 && $0.cpus.first?.count == 1 })
        } else {
            #expect(workers.pinnedCPUs.isEmpty)
        }
    }

    /// One instance taking two inputs: two held on a gate fill it. An upload is then refused at
    /// once, without running; a camera reading goes ahead of the one waiting; a batch's input
    /// waits for room and comes last. Once the gate opens all are answered as a classifier
    /// answers directly, and the queue has room again.
    @Test func fullQueueRefusesAtOnceAndTheCameraGoesAhead() throws {
        let options = TestPaths.classifierOptions()
        let workers = try InferenceWorkers([try Classifier(options: options)], inputsPerInstance: 2)
        #expect(workers.capacity == 2 && workers.instances == 1)
        let expected = try Classifier(options: options).classify(path: TestPaths.appleScabLeaf).top.first?.label
        let gate = Lock(false)
        let order = Lock<[String]>([])
        let labels = Lock<[String: String?]>([:])
        func classify(_ name: String, _ classifier: Classifier) {
            order.withLock { $0.append(name) }
            gate.withLock(waitingUntil: { $0 }) { _ in }
            let label = try? classifier.classify(path: TestPaths.appleScabLeaf).top.first?.label
            labels.withLock { $0[name] = label }
        }
        func waitForInputs(_ count: Int) {
            while workers.inputs != count { usleep(1000) }
        }
        var callers: [WorkerThread] = []
        callers.append(try WorkerThread { workers.run { classify("held", $0) } })
        // On the instance, not merely queued: what comes next waits behind it.
        while order.withLock({ $0.isEmpty }) { usleep(1000) }
        callers.append(try WorkerThread { workers.run { classify("waiting", $0) } })
        waitForInputs(2)
        #expect(workers.busy?.inputs == 2 && (workers.busy?.retryAfterSeconds ?? 0) >= 1)

        var ran = false
        let refused = workers.runUnlessFull { _ in ran = true }
        if case .refused(let busy) = refused {
            #expect(busy.inputs == 2 && busy.retryAfterSeconds >= 1)
        } else {
            Issue.record("a full queue took an upload")
        }
        #expect(!ran)

        callers.append(try WorkerThread { workers.runAhead { classify("camera", $0) } })
        waitForInputs(3)
        callers.append(try WorkerThread { workers.run { classify("batch", $0) } })
        // The batch's input waits for room: it is not in the queue while the gate holds it full.
        #expect(workers.inputs == 3)
        gate.withLock { isOpen in
            isOpen = true
            gate.broadcast()
        }
        for caller in callers { caller.join() }
        #expect(order.withLock { $0 } == ["held", "camera", "waiting", "batch"])
        #expect(labels.withLock { $0 } == ["held": expected, "camera": expected, "waiting": expected, "batch": expected])
        #expect(workers.counts == InferenceWorkers.Counts(ahead: 1, behind: 3))

        let answered = workers.runUnlessFull { classifier in try? classifier.classify(path: TestPaths.appleScabLeaf).top.first?.label }
        if case .answered(let label) = answered {
            #expect(label == expected)
        } else {
            Issue.record("a queue with room refused an upload")
        }
        #expect(workers.busy == nil && workers.inputs == 0)
    }
}
