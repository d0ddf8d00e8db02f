import PlantLeafCore

/// Counters `GET /metrics` shows in Prometheus's text format: classified uploads by verdict,
/// the time each took (a histogram), and requests refused by status.
final class ServeMetrics: @unchecked Sendable {
    /// Upper bounds of the latency histogram's buckets, in seconds.
    static let latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    private let lock = Lock()
    private var verdicts: [Verdict: Int] = [:]
    private var failed = 0
    private var bucketCounts = [Int](repeating: 0, count: ServeMetrics.latencyBuckets.count)
    private var latencyCount = 0
    private var latencySum = 0.0
    private var refusals: [Int: Int] = [:]

    func classified(_ verdict: Verdict, seconds: Double) {
        lock.withLock {
            verdicts[verdict, default: 0] += 1
            for (index, bound) in ServeMetrics.latencyBuckets.enumerated() where seconds <= bound { bucketCounts[index] += 1 }
            latencyCount += 1
            latencySum += seconds
        }
    }

    /// An upload that was read but could not be classified (not an image, over a budget).
    func unclassifiable() { lock.withLock { failed += 1 } }

    func refused(status: Int) { lock.withLock { refusals[status, default: 0] += 1 } }

    /// The metrics, with the camera's counts when there is one.
    func text(camera: (verdicts: [Verdict: Int], droppedFrames: Int)?) -> String {
        lock.withLock {
            var lines = ["# HELP plantleaf_uploads_classified_total Uploads classified, by verdict.",
                         "# TYPE plantleaf_uploads_classified_total counter"]
            for verdict in Verdict.allCases {
                lines.append("plantleaf_uploads_classified_total{verdict=\"\(verdict.rawValue)\"} \(verdicts[verdict, default: 0])")
            }
            lines += ["# HELP plantleaf_uploads_unclassifiable_total Uploads read whole that were no usable image.",
                      "# TYPE plantleaf_uploads_unclassifiable_total counter",
                      "plantleaf_uploads_unclassifiable_total \(failed)",
                      "# HELP plantleaf_classify_seconds Time from upload read to result: decode, resize, inference, scoring.",
                      "# TYPE plantleaf_classify_seconds histogram"]
            for (index, bound) in ServeMetrics.latencyBuckets.enumerated() {
                lines.append("plantleaf_classify_seconds_bucket{le=\"\(JSONObject.number(bound, decimals: 3))\"} \(bucketCounts[index])")
            }
            lines += ["plantleaf_classify_seconds_bucket{le=\"+Inf\"} \(latencyCount)",
                      "plantleaf_classify_seconds_sum \(JSONObject.number(latencySum, decimals: 6))",
                      "plantleaf_classify_seconds_count \(latencyCount)",
                      "# HELP plantleaf_requests_refused_total Requests answered with an error status, by status.",
                      "# TYPE plantleaf_requests_refused_total counter"]
            for status in refusals.keys.sorted() {
                lines.append("plantleaf_requests_refused_total{status=\"\(status)\"} \(refusals[status]!)")
            }
            if let camera {
                lines += ["# HELP plantleaf_camera_readings_total Camera frames classified, by verdict.",
                          "# TYPE plantleaf_camera_readings_total counter"]
                for verdict in Verdict.allCases {
                    lines.append("plantleaf_camera_readings_total{verdict=\"\(verdict.rawValue)\"} \(camera.verdicts[verdict, default: 0])")
                }
                lines += ["# HELP plantleaf_camera_frames_dropped_total Frames the camera dropped before they were read (sequence gaps).",
                          "# TYPE plantleaf_camera_frames_dropped_total counter",
                          "plantleaf_camera_frames_dropped_total \(camera.droppedFrames)"]
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }
}
