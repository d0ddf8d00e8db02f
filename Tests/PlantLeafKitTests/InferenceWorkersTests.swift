import CScheduler
import Glibc
import PlantLeafCore
import PlantLeafTestSupport
import Testing

/// Serve's model instances on threads of their own: callers on many threads get the answers a
/// classifier gives directly, each instance always runs on the same thread (never the caller's),
/// and, where the process may use as many CPUs as there are instances, on one CPU of its own.
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
        let expected = try leaves.map { try direct.classify(path: $0, topK: 1).top.first?.label }
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
                        return try? classifier.classify(path: leaves[(caller + index) % 2], topK: 1).top.first?.label
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
}
