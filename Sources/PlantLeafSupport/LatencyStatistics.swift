/// Summary of one stage's latencies over a benchmark's measured runs, in milliseconds.
///
/// Percentiles interpolate linearly between the two nearest ranks (NumPy's default, Hyndman and
/// Fan's type 7): the p-th percentile of n sorted samples sits at rank p/100 x (n - 1), counted
/// from 0. The median is the 50th percentile, so an even count gives the mean of the middle two.
/// The standard deviation is the sample one (divides by n - 1) and is 0 for a single run.
public struct LatencyStatistics: Sendable, Equatable {
    public var count: Int
    public var min: Double
    public var median: Double
    public var mean: Double
    public var standardDeviation: Double
    public var p90: Double
    public var p99: Double
    public var max: Double

    /// Statistics already worked out (or placeholders where there were no samples).
    package init(count: Int, min: Double, median: Double, mean: Double, standardDeviation: Double,
                 p90: Double, p99: Double, max: Double) {
        (self.count, self.min, self.median, self.mean) = (count, min, median, mean)
        (self.standardDeviation, self.p90, self.p99, self.max) = (standardDeviation, p90, p99, max)
    }
}

extension LatencyStatistics {
    /// nil for no samples: there is nothing to summarise.
    public init?(_ samples: [Double]) {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        // Welford's running mean and squared deviation: identical samples give exactly 0, where
        // sum-then-divide can leave a rounding residue.
        var mean = 0.0, squaredDeviation = 0.0
        for (offset, sample) in samples.enumerated() {
            let delta = sample - mean
            mean += delta / Double(offset + 1)
            squaredDeviation += delta * (sample - mean)
        }
        let variance = samples.count > 1 ? squaredDeviation / Double(samples.count - 1) : 0
        self.init(count: samples.count, min: sorted[0], median: LatencyStatistics.percentile(50, ofSorted: sorted),
                  mean: mean, standardDeviation: variance.squareRoot(),
                  p90: LatencyStatistics.percentile(90, ofSorted: sorted), p99: LatencyStatistics.percentile(99, ofSorted: sorted),
                  max: sorted[sorted.count - 1])
    }

    /// The p-th percentile (0...100) of samples sorted ascending; see the type's comment.
    package static func percentile(_ p: Double, ofSorted sorted: [Double]) -> Double {
        precondition(!sorted.isEmpty, "a percentile needs at least one sample")
        let rank = p / 100 * Double(sorted.count - 1)
        let lower = Int(rank.rounded(.down))
        let upper = Swift.min(lower + 1, sorted.count - 1)
        let fraction = rank - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }
}
