import PlantLeafCore
import Synchronization

/// Counters `GET /metrics` shows in Prometheus's text format: classified uploads by verdict,
/// the time each took (a histogram), requests refused by status, the model instances and the
/// inputs in their queue, and with a camera its readings
/// by verdict, its dropped frames and its frames' ages (a histogram).
final class ServeMetrics: Sendable {
    private struct Counts {
        var verdicts: [Verdict: Int] = [:]
        var failed = 0
        var latency = LatencyHistogram()
        var refusals: [Int: Int] = [:]
    }

    private let counts = Mutex(Counts())

    func classified(_ verdict: Verdict, seconds: Double) {
        counts.withLock { counts in
            counts.verdicts[verdict, default: 0] += 1
            counts.latency.add(seconds: seconds)
        }
    }

    /// An upload that was read but could not be classified (not an image, over a budget).
    func unclassifiable() { counts.withLock { $0.failed += 1 } }

    func refused(status: Int) { counts.withLock { $0.refusals[status, default: 0] += 1 } }

    /// The metrics, with the camera's counts when there is one.
    func text(camera: LiveFeed.Counts?, instances: Int, queued: Int, classified: InferenceWorkers.Counts) -> String {
        // A copy, so the text is made outside the lock.
        let counts = self.counts.withLock { $0 }
        var lines = ["# HELP plantleaf_uploads_classified_total Uploads classified, by verdict.",
                     "# TYPE plantleaf_uploads_classified_total counter"]
        for verdict in Verdict.allCases {
            lines.append("plantleaf_uploads_classified_total{verdict=\"\(verdict.rawValue)\"} \(counts.verdicts[verdict, default: 0])")
        }
        lines += ["# HELP plantleaf_uploads_unclassifiable_total Uploads read whole that were no usable image.",
                  "# TYPE plantleaf_uploads_unclassifiable_total counter",
                  "plantleaf_uploads_unclassifiable_total \(counts.failed)"]
        lines += counts.latency.lines("plantleaf_classify_seconds", help: "Time from upload read to result: decode, resize, inference, scoring.")
        lines += ["# HELP plantleaf_requests_refused_total Requests answered with an error status, by status.",
                  "# TYPE plantleaf_requests_refused_total counter"]
        for status in counts.refusals.keys.sorted() {
            lines.append("plantleaf_requests_refused_total{status=\"\(status)\"} \(counts.refusals[status]!)")
        }
        lines += ["# HELP plantleaf_model_instances Model instances classifying, each on a thread of its own; uploads and camera share them.",
                  "# TYPE plantleaf_model_instances gauge",
                  "plantleaf_model_instances \(instances)",
                  "# HELP plantleaf_inference_queue_inputs Uploads and camera readings waiting for a model instance or being classified.",
                  "# TYPE plantleaf_inference_queue_inputs gauge",
                  "plantleaf_inference_queue_inputs \(queued)",
                  "# HELP plantleaf_inference_inputs_total Inputs the model instances classified: camera readings ahead of the queue, uploads behind it.",
                  "# TYPE plantleaf_inference_inputs_total counter",
                  "plantleaf_inference_inputs_total{place=\"ahead\"} \(classified.ahead)",
                  "plantleaf_inference_inputs_total{place=\"behind\"} \(classified.behind)"]
        if let camera {
            lines += ["# HELP plantleaf_camera_readings_total Camera frames classified, by verdict.",
                      "# TYPE plantleaf_camera_readings_total counter"]
            for verdict in Verdict.allCases {
                lines.append("plantleaf_camera_readings_total{verdict=\"\(verdict.rawValue)\"} \(camera.verdicts[verdict, default: 0])")
            }
            lines += ["# HELP plantleaf_camera_frames_dropped_total Frames the camera dropped before they were read (sequence gaps).",
                      "# TYPE plantleaf_camera_frames_dropped_total counter",
                      "plantleaf_camera_frames_dropped_total \(camera.droppedFrames)"]
            lines += camera.frameAge.lines("plantleaf_camera_frame_age_seconds", help: "Time from a frame's capture to its reading's scores.")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
