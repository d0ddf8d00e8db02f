import PlantLeafCore
import PlantLeafSupport

/// A Prometheus histogram of seconds: cumulative counts under each bound, their sum and count.
struct LatencyHistogram: Sendable {
    /// Upper bounds of the buckets, in seconds: from a fast board's inference to a slow one's
    /// large photo.
    static let bounds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    private var counts = [Int](repeating: 0, count: LatencyHistogram.bounds.count)
    private var total = 0
    private var sum = 0.0

    mutating func add(seconds: Double) {
        for (index, bound) in LatencyHistogram.bounds.enumerated() where seconds <= bound { counts[index] += 1 }
        total += 1
        sum += seconds
    }

    /// The histogram's lines under `name`, after its HELP and TYPE lines.
    func lines(_ name: String, help: String) -> [String] {
        var lines = ["# HELP \(name) \(help)", "# TYPE \(name) histogram"]
        for (index, bound) in LatencyHistogram.bounds.enumerated() {
            lines.append("\(name)_bucket{le=\"\(JSONObject.number(bound, decimals: 3))\"} \(counts[index])")
        }
        return lines + ["\(name)_bucket{le=\"+Inf\"} \(total)", "\(name)_sum \(JSONObject.number(sum, decimals: 6))", "\(name)_count \(total)"]
    }
}
