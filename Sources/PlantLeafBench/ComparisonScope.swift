/// What `plantleaf bench compare` shows of its reports, in the text and on the page alike, and
/// what it leaves out. Reports are untrusted: one file can hold tens of thousands of thread
/// counts, stages or op types, and every one shown costs a table or a chart per report. A real
/// bench run measures a handful of each, so the limits cut only files no run wrote, and the
/// comparison says what it cut.
struct ComparisonScope {
    /// Thread counts shown: the fewest ones (`plantleaf bench --threads` takes 1 to 64).
    static let mostThreadCounts = 16
    /// Stages shown: the pipeline's, then others alphabetically (a run writes six).
    static let mostStages = 16
    /// Op types shown per profile table: the slowest in any report of the table (a model has a few dozen).
    static let mostOpTypes = 40

    /// The thread counts shown, fewest first.
    let threadCounts: [Int]
    /// The stage names shown, in pipeline order, then alphabetically.
    let stageNames: [String]
    /// Every report's results by thread count, for look-ups in constant time.
    let resultsByThreads: [[Int: StoredBenchReport.Result]]
    /// One line for each kind of row left out, naming how many of how many were shown.
    let cuts: [String]

    init(_ reports: [StoredBenchReport]) {
        var allThreadCounts: Set<Int> = []
        var present: Set<String> = []
        var resultsByThreads: [[Int: StoredBenchReport.Result]] = []
        for report in reports {
            var byThreads: [Int: StoredBenchReport.Result] = [:]
            for result in report.results {
                allThreadCounts.insert(result.threads)
                present.formUnion(result.stages.keys)
                // A report holds each thread count once (`StoredBenchReport.implausibleValue`).
                byThreads[result.threads] = byThreads[result.threads] ?? result
            }
            resultsByThreads.append(byThreads)
        }
        self.resultsByThreads = resultsByThreads
        let sortedThreadCounts = allThreadCounts.sorted()
        threadCounts = Array(sortedThreadCounts.prefix(Self.mostThreadCounts))
        let known = BenchStage.allCases.map(\.rawValue).filter(present.contains)
        let allStages = known + present.subtracting(known).sorted()
        stageNames = Array(allStages.prefix(Self.mostStages))

        var cuts: [String] = []
        if sortedThreadCounts.count > threadCounts.count, let last = threadCounts.last {
            cuts.append("cut: shown are the \(threadCounts.count) fewest of \(sortedThreadCounts.count) thread counts (up to \(last) threads); "
                + "the other \(sortedThreadCounts.count - threadCounts.count) are left out")
        }
        if allStages.count > stageNames.count {
            cuts.append("cut: shown are \(stageNames.count) of \(allStages.count) stages (the pipeline's, then alphabetically); "
                + "the other \(allStages.count - stageNames.count) are left out")
        }
        self.cuts = cuts
    }

    /// Report `index`'s result for `threads`, if it measured that count.
    func result(_ index: Int, threads: Int) -> StoredBenchReport.Result? { resultsByThreads[index][threads] }

    /// The op type names of `profiles` (the first's order, then each later one's new names),
    /// cut to the `mostOpTypes` slowest in any of them, in that order; and how many there were.
    static func opTypeNames(_ profiles: [StoredBenchReport.Profile]) -> (names: [String], total: Int) {
        var names: [String] = []
        var slowest: [String: Double] = [:]
        for profile in profiles {
            for type in profile.opTypes {
                if let time = slowest[type.name] {
                    slowest[type.name] = Swift.max(time, type.medianMs)
                } else {
                    names.append(type.name)
                    slowest[type.name] = type.medianMs
                }
            }
        }
        guard names.count > mostOpTypes else { return (names, names.count) }
        let kept = Set(names.enumerated().sorted { (slowest[$0.element] ?? 0, -$0.offset) > (slowest[$1.element] ?? 0, -$1.offset) }
            .prefix(mostOpTypes).map(\.element))
        return (names.filter(kept.contains), names.count)
    }

    /// The line saying how many op types a table left out, or nil when it shows them all.
    static func opTypeCut(shown: Int, total: Int) -> String? {
        guard total > shown else { return nil }
        return "cut: shown are the \(shown) slowest of \(total) op types; the other \(total - shown) are left out"
    }
}
