import CScheduler
import Glibc
import PlantLeafCore
import PlantLeafSupport

/// A set of CPU numbers, as `bench --cpus 4-7` or `0,2,4-5` names it, and the means to run the
/// benchmark on them. On a big.LITTLE board (an RK3588's four Cortex-A76 and four A55, say) the
/// scheduler moves threads between fast and slow cores, so unpinned latencies mix both kinds;
/// pinned, a report measures one.
public struct CPUSet: Sendable, Equatable, CustomStringConvertible {
    /// The CPU numbers, ascending, each once.
    public let cpus: [Int]

    /// The set of `cpus` (in any order, repeats ignored).
    public init(_ cpus: [Int]) { self.cpus = Array(Set(cpus)).sorted() }

    /// Reads a comma list of CPU numbers and ranges: "4-7", "0,2,4-5".
    ///
    /// - Throws: `CPUSetError.malformed` for anything else (an empty item, a reversed range),
    ///   `.outOfRange` for a number the affinity calls cannot name.
    public init(parsing text: String) throws(CPUSetError) {
        let limit = Int(pl_cpu_set_size())
        var cpus: [Int] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = item.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard item.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }),
                  let first = Int(bounds[0]), let last = Int(bounds.last!), first <= last else {
                throw .malformed(text)
            }
            guard last < limit else { throw .outOfRange(cpu: last, limit: limit) }
            cpus += Array(first...last)
        }
        self.init(cpus)
    }

    /// "0-3", "0,2,4-5": runs of consecutive numbers as ranges, what `init(parsing:)` reads.
    public var description: String {
        var ranges: [String] = []
        var index = 0
        while index < cpus.count {
            var end = index
            while end + 1 < cpus.count, cpus[end + 1] == cpus[end] + 1 { end += 1 }
            ranges.append(end > index ? "\(cpus[index])-\(cpus[end])" : "\(cpus[index])")
            index = end + 1
        }
        return ranges.joined(separator: ",")
    }

    /// The CPUs this thread may run on now (its affinity, which `taskset` or a cgroup may have
    /// narrowed), or nil when the system does not say.
    public static func allowed() -> CPUSet? {
        var cpus = [Int32](repeating: 0, count: Int(pl_cpu_set_size()))
        let count = Int(pl_allowed_cpus(&cpus, Int32(cpus.count)))
        guard count > 0 else { return nil }
        return CPUSet(cpus.prefix(min(count, cpus.count)).map(Int.init))
    }

    /// Runs the calling thread, and every thread it starts from now on (LiteRT's workers among
    /// them), on these CPUs only.
    ///
    /// - Throws: `CPUSetError.notAllowed` when some of them are not among `allowed()` (offline,
    ///   absent, or outside the process's own affinity), `.failed` when the system refuses.
    public func pin() throws(CPUSetError) {
        if let allowed = Self.allowed() {
            let missing = cpus.filter { !allowed.cpus.contains($0) }
            guard missing.isEmpty else { throw .notAllowed(CPUSet(missing), allowed: allowed) }
        }
        let numbers = cpus.map(Int32.init)
        let status = numbers.withUnsafeBufferPointer { pl_set_cpu_affinity($0.baseAddress, Int32($0.count)) }
        guard status == 0 else { throw .failed(self, reason: SystemError(status).reason) }
    }
}
