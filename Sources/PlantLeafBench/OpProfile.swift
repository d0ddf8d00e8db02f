import PlantLeafCore
import PlantLeafSupport

/// Where an invoke's time goes, op by op, from LiteRT's profiler over several runs of a
/// separate, profiling interpreter (so the stage timings beside it are never profiled).
public struct OpProfile: Sendable, Equatable {
    /// One op of the graph: its median time per invoke over the profiled runs. The median, as
    /// for the stages: a run the machine interrupted inflates only that run's ops, and the ops'
    /// medians then still add up to the invokes' median.
    public struct Op: Sendable, Equatable {
        public var node: Int
        /// Run inside XNNPACK (its node numbers are its own graph's), else by TFLite's kernel.
        public var delegated: Bool
        public var name: String
        public var medianMilliseconds: Double
    }

    /// All ops of one kernel name: how many there are in one invoke and their summed median time.
    public struct OpType: Sendable, Equatable {
        public var name: String
        public var count: Int
        public var medianMilliseconds: Double
    }

    public var runs: Int
    /// The profiled invokes' median on the monotonic clock: against the unprofiled invoke's
    /// median, what profiling costs.
    public var invokeMedianMilliseconds: Double
    /// The fastest profiled invoke, and what its own ops add up to: the run the machine
    /// disturbed least, where the ops' share of the invoke shows best whatever else is running.
    public var fastestInvoke: (milliseconds: Double, opsMilliseconds: Double)
    /// Every op, in the order they ran.
    public var ops: [Op]

    /// The ops' times summed over every op: the invoke time the profiler accounts for.
    public var totalMilliseconds: Double { ops.reduce(0) { $0 + $1.medianMilliseconds } }

    /// The ops, slowest first (ties in node order).
    public var slowestOps: [Op] {
        ops.enumerated().sorted { ($0.element.medianMilliseconds, -$0.offset) > ($1.element.medianMilliseconds, -$1.offset) }.map(\.element)
    }

    /// Totals per kernel name, slowest first.
    public var opTypes: [OpType] {
        var types: [OpType] = []
        for op in ops {
            if let index = types.firstIndex(where: { $0.name == op.name }) {
                types[index].count += 1
                types[index].medianMilliseconds += op.medianMilliseconds
            } else {
                types.append(OpType(name: op.name, count: 1, medianMilliseconds: op.medianMilliseconds))
            }
        }
        return types.enumerated().sorted { ($0.element.medianMilliseconds, -$0.offset) > ($1.element.medianMilliseconds, -$1.offset) }
            .map(\.element)
    }

    public init(runs: Int, invokeMedianMilliseconds: Double, fastestInvoke: (milliseconds: Double, opsMilliseconds: Double), ops: [Op]) {
        self.runs = runs
        self.invokeMedianMilliseconds = invokeMedianMilliseconds
        self.fastestInvoke = fastestInvoke
        self.ops = ops
    }

    public static func == (left: OpProfile, right: OpProfile) -> Bool {
        left.runs == right.runs && left.invokeMedianMilliseconds == right.invokeMedianMilliseconds
            && left.fastestInvoke == right.fastestInvoke && left.ops == right.ops
    }

    /// The profile of `invokes`, each one profiled invoke: its time and its op events. An op is
    /// a node; a node that ran several times in one invoke counts once with its times summed.
    public init(invokes: [(milliseconds: Double, ops: [OperatorEvent])]) {
        struct Key: Hashable { var node: Int, delegated: Bool }
        var order: [Key] = []
        var names: [Key: String] = [:]
        var timesPerInvoke: [Key: [Double]] = [:]
        for invoke in invokes {
            var thisInvoke: [Key: Double] = [:]
            for event in invoke.ops {
                let key = Key(node: event.node, delegated: event.delegated)
                if names[key] == nil {
                    order.append(key)
                    names[key] = event.name
                }
                thisInvoke[key, default: 0] += event.microseconds / 1000
            }
            for (key, milliseconds) in thisInvoke { timesPerInvoke[key, default: []].append(milliseconds) }
        }
        let ops = order.map { key in
            Op(node: key.node, delegated: key.delegated, name: names[key]!,
               medianMilliseconds: LatencyStatistics(timesPerInvoke[key]!)?.median ?? 0)
        }
        let fastest = invokes.min { $0.milliseconds < $1.milliseconds }
        let fastestInvoke = (milliseconds: fastest?.milliseconds ?? .nan,
                             opsMilliseconds: fastest.map { $0.ops.reduce(0) { $0 + $1.microseconds / 1000 } } ?? .nan)
        self.init(runs: invokes.count, invokeMedianMilliseconds: LatencyStatistics(invokes.map(\.milliseconds))?.median ?? .nan,
                  fastestInvoke: fastestInvoke, ops: ops)
    }
}
