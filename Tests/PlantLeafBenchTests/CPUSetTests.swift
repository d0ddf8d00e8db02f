import Foundation
import PlantLeafBench
import Testing

@Suite struct CPUSetTests {
    @Test func readsNumbersAndRangesAndWritesThemBack() throws {
        let set = try CPUSet(parsing: "6,0-3,2")
        #expect(set.cpus == [0, 1, 2, 3, 6])
        #expect(set.description == "0-3,6")
        #expect(try CPUSet(parsing: set.description) == set)
        #expect(CPUSet([5, 4, 0, 2]).description == "0,2,4-5")
    }

    @Test(arguments: ["", "1,", ",1", "3-1", "a", "1-2-3", "-1", "1 2", "٣"])
    func refusesMalformedLists(text: String) {
        #expect(throws: CPUSetError.malformed(text)) { try CPUSet(parsing: text) }
    }

    @Test func refusesNumbersAboveTheAffinityLimit() {
        #expect(throws: CPUSetError.outOfRange(cpu: 5000, limit: 1024)) { try CPUSet(parsing: "0,5000") }
    }

    /// Affinity is per thread: pinned on a thread of its own, the test leaves the others alone.
    @Test func pinnedThreadRunsOnlyOnThoseCPUs() throws {
        let allowed = try #require(CPUSet.allowed())
        let first = CPUSet([allowed.cpus[0]])
        let outcome = OnThread.run { () -> (CPUSetError?, CPUSet?) in
            do throws(CPUSetError) {
                try first.pin()
                return (nil, CPUSet.allowed())
            } catch {
                return (error, nil)
            }
        }
        #expect(outcome.0 == nil)
        #expect(outcome.1 == first)
        #expect(CPUSet.allowed() == allowed, "the test's own thread kept its CPUs")
    }

    @Test func cpuTheProcessCannotUseIsRefusedBeforePinning() throws {
        let allowed = try #require(CPUSet.allowed())
        let absent = try #require((0..<1024).first { !allowed.cpus.contains($0) })
        let error = OnThread.run { () -> CPUSetError? in
            do throws(CPUSetError) { try CPUSet([absent]).pin(); return nil } catch { return error }
        }
        #expect(error == .notAllowed(CPUSet([absent]), allowed: allowed))
        #expect(error?.message == "--cpus names CPU \(absent), which this process cannot run on (it may use \(allowed)): see lscpu")
    }
}

/// Runs `body` on a new thread and waits for its result.
private final class OnThread<Result>: @unchecked Sendable {
    private let done = NSCondition()
    private var result: Result?

    static func run(_ body: @escaping () -> Result) -> Result {
        let box = OnThread<Result>()
        let work = UncheckedBody(body: body)
        Thread {
            let value = work.body()
            box.done.lock()
            box.result = value
            box.done.signal()
            box.done.unlock()
        }.start()
        box.done.lock()
        while box.result == nil { box.done.wait() }
        box.done.unlock()
        return box.result!
    }
}

/// The body handed to the thread, which runs it alone.
private struct UncheckedBody<Result>: @unchecked Sendable {
    let body: () -> Result
}
