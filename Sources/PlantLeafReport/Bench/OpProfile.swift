import PlantLeafCore

/// Where an invoke's time goes, op by op, from LiteRT's profiler over several runs of a
/// separate, profiling interpreter (so the stage timings beside it are never profiled).
public struct OpProfile: Sendable, Equatable {
    /// One op of the graph: its mean time per invoke over the profiled runs.
    public struct Op: Sendable, Equatable {
        public var node: Int
        /// Run inside XNNPACK (its node numbers are its own graph's), else by TFLite's kernel.
        public var delegated: Bool
        public var name: String
        public var meanMilliseconds: Double
    }

    /// All ops of one kernel name: how many there are in one invoke and their summed mean time.
    public struct OpType: Sendable, Equatable {
        public var name: String
        public var count: Int
        public var meanMilliseconds: Double
    }

    public var runs: Int
    /// The profiled invokes' median on the monotonic clock: against the unprofiled invoke's
    /// median, what profiling costs.
    public var invokeMedianMilliseconds: Double
    /// Every op, in the order they ran.
    public var ops: [Op]

    /// The ops' times summed over every op: the invoke time the profiler accounts for.
    public var totalMilliseconds: Double { ops.reduce(0) { $0 + $1.meanMilliseconds } }

    /// The ops, slowest first (ties in node order).
    public var slowestOps: [Op] {
        ops.enumerated().sorted { ($0.element.meanMilliseconds, -$0.offset) > ($1.element.meanMilliseconds, -$1.offset) }.map(\.element)
    }

    /// Totals per kernel name, slowest first.
    public var opTypes: [OpType] {
        var types: [OpType] = []
        for op in ops {
            if let index = types.firstIndex(where: { $0.name == op.name }) {
                types[index].count += 1
                types[index].meanMilliseconds += op.meanMilliseconds
            } else {
                types.append(OpType(name: op.name, count: 1, meanMilliseconds: op.meanMilliseconds))
            }
        }
        return types.enumerated().sorted { ($0.element.meanMilliseconds, -$0.offset) > ($1.element.meanMilliseconds, -$1.offset) }
            .map(\.element)
    }

    public init(runs: Int, invokeMedianMilliseconds: Double, ops: [Op]) {
        self.runs = runs
        self.invokeMedianMilliseconds = invokeMedianMilliseconds
        self.ops = ops
    }

    /// The profile of `invokes`, each one profiled invoke: its time and its op events. An op is
    /// a node; a node that ran several times in one invoke counts once with its times summed.
    public init(invokes: [(milliseconds: Double, ops: [OperatorEvent])]) {
        struct Key: Hashable { var node: Int, delegated: Bool }
        var order: [Key] = []
        var totals: [Key: (name: String, microseconds: Double)] = [:]
        for invoke in invokes {
            for event in invoke.ops {
                let key = Key(node: event.node, delegated: event.delegated)
                if totals[key] == nil { order.append(key) }
                totals[key, default: (event.name, 0)].microseconds += event.microseconds
            }
        }
        let runs = Double(max(invokes.count, 1))
        let ops = order.map { key in
            Op(node: key.node, delegated: key.delegated, name: totals[key]!.name, meanMilliseconds: totals[key]!.microseconds / 1000 / runs)
        }
        self.init(runs: invokes.count, invokeMedianMilliseconds: LatencyStatistics(invokes.map(\.milliseconds))?.median ?? .nan, ops: ops)
    }
}
