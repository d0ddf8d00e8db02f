import PlantLeafCore
import PlantLeafCamera
import PlantLeafBench
import Glibc
import PlantLeafSupport

/// What `plantleaf camera` writes. Each classified frame is one JSON line, its `ReadingRecord`
/// (`CameraResult.record`: "frame", "time", "verdict", "top", "age_ms", "timing_ms" with
/// "prepare" and "invoke", "capture_fps", "inference_fps", "dropped", and "saved" when the frame
/// was saved). The run ends with {"summary": {...}} (`summaryRecord`), whose "verdicts" counts
/// the classified frames by verdict. On a terminal the same results are drawn as a status block
/// (`statusLines`).
public enum CameraOutput {
    /// The line that says what is being read, printed once before the first frame.
    public static func setupLine(_ setup: CameraSetup, crop: CropMode, in catalogue: Catalogue = .english) -> String {
        switch setup {
        case .device(let setup):
            return catalogue.text("camera.setup.device", [
                "path": setup.device.path, "card": setup.device.card, "driver": setup.device.driver,
                "format": setup.stream.format.displayName, "size": "\(setup.stream.size)",
                "rate": rateText(setup.stream.framesPerSecond ?? 0, in: catalogue), "crop": crop.rawValue,
                "buffers": String(setup.bufferCount), "reason": choiceText(setup.plan, in: catalogue),
            ])
        case .stream(let name, let maxFrameBytes):
            return catalogue.text("camera.setup.stream", ["name": name, "crop": crop.rawValue, "mebibytes": String(maxFrameBytes >> 20)])
        }
    }

    /// Why the format and size were taken: "auto; 800x600 not offered, nearest is 1280x720; also offered: YUYV 1280x720 at 10 fps".
    static func choiceText(_ plan: CapturePlan, in catalogue: Catalogue) -> String {
        let choice = plan.reason
        var text = catalogue[choice.formatRequested ? "camera.setup.requested" : "camera.setup.auto"]
        if let asked = choice.sizeNotOffered { text += catalogue.text("camera.setup.nearest", ["size": "\(asked)", "nearest": "\(plan.size)"]) }
        if !choice.alsoOffered.isEmpty {
            let offers = choice.alsoOffered.map { "\($0.format.displayName) \($0.size)" + rateText($0.framesPerSecond, in: catalogue) }
            text += catalogue.text("camera.setup.also-offered", ["formats": offers.joined(separator: catalogue["list.separator"])])
        }
        return text
    }

    /// " at 30 fps"; nothing for a rate of 0 (none known).
    private static func rateText(_ framesPerSecond: Double, in catalogue: Catalogue) -> String {
        framesPerSecond > 0 ? catalogue.text("camera.rate", ["fps": JSONObject.number(framesPerSecond, decimals: 2)]) : ""
    }

    /// The status block's lines for one result: `header`, the verdict, its advice (an empty line for
    /// a diagnosis), the preview's rows when there is one, the frame's numbers, then a bar per class.
    public static func statusLines(_ result: CameraResult, header: String, preview: TerminalPreview?, catalogue: Catalogue) -> [String] {
        var lines = [header, ClassificationOutput.verdictLine(result.verdict, in: catalogue)]
        // Always a line, empty for a diagnosis: the block keeps its height, so a redraw covers the last.
        lines.append(result.reason.map { catalogue.advice($0, for: .camera) } ?? "")
        if let preview, let image = result.modelInput { lines += preview.render(image) }
        let counts = result.counts
        lines.append("\(result.time)   frame \(result.sequence)   age \(JSONObject.number(result.ageMilliseconds, decimals: 0)) ms   "
            + "capture \(JSONObject.number(counts.framesPerSecond, decimals: 1)) fps   "
            + "inference \(JSONObject.number(result.inferenceFramesPerSecond, decimals: 1)) fps   dropped \(counts.dropped)")
        for entry in result.top {
            let filled = max(0, min(20, Int((entry.score * 20).rounded())))
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: 20 - filled)
            let percent = DecimalText.fixed(entry.score * 100, decimals: 1)
            lines.append(String(repeating: " ", count: max(0, 6 - percent.count)) + percent + "% " + bar + " " + catalogue.className(entry.label))
        }
        return lines
    }

    /// The run's summary line for stderr. `fromStream`: the input was a motion-JPEG stream;
    /// `retriesDevice`: a device read at intervals, whose failed attempts are counted.
    public static func summaryLine(_ summary: CameraSummary, fromStream: Bool, retriesDevice: Bool, in catalogue: Catalogue = .english) -> String {
        let counts = summary.counts
        func age(_ milliseconds: Double?) -> String {
            milliseconds.map { catalogue.text("camera.milliseconds", ["value": JSONObject.number($0, decimals: 1)]) } ?? "-"
        }
        var text: String
        if fromStream {
            text = catalogue.text("camera.summary.stream", [
                "read": String(counts.captured), "classified": String(summary.classified), "superseded": String(counts.superseded),
                "broken": String(counts.broken), "oversized": String(counts.oversized), "corrupt": String(summary.corrupt),
                "skipped": String(counts.skippedBytes),
            ])
        } else {
            text = catalogue.text("camera.summary.device", [
                "captured": String(counts.captured), "classified": String(summary.classified), "dropped": String(counts.dropped),
                "flagged": String(counts.flaggedError), "corrupt": String(summary.corrupt),
            ])
        }
        let verdicts = Verdict.allCases.map { catalogue.text("camera.summary.verdict." + $0.rawValue, ["count": String(summary.verdicts[$0] ?? 0)]) }
        text += catalogue.text("camera.summary.verdicts", ["verdicts": verdicts.joined(separator: catalogue["list.separator"])])
        text += catalogue.text("camera.summary.ages", ["median": age(summary.medianAge), "p99": age(summary.p99Age)])
        if retriesDevice { text += catalogue.text("camera.summary.failed-attempts", ["count": String(summary.failedAttempts)]) }
        if summary.streamEnded { text += catalogue["camera.summary.stream-ended"] }
        if let signal = summary.signal { text += catalogue.text("camera.summary.stopped", ["signal": signal == SIGINT ? "Ctrl-C" : "SIGTERM"]) }
        if let problem = summary.lastCorruptFrame {
            text += catalogue.text("camera.summary.last-corrupt", ["problem": problem.description(in: catalogue)])
        }
        return text
    }

    /// The run's summary as the last JSON line: {"summary": {...}}, stamped with `time`.
    public static func summaryRecord(_ summary: CameraSummary, fromStream: Bool, retriesDevice: Bool, time: String) -> String {
        let counts = summary.counts
        var object = JSONObject()
        object.add("time", time)
        object.add("captured", counts.captured)
        object.add("classified", summary.classified)
        var verdicts = JSONObject()
        for verdict in Verdict.allCases { verdicts.add(verdict.rawValue, summary.verdicts[verdict] ?? 0) }
        object.add("verdicts", verdicts)
        object.add("dropped", counts.dropped)
        object.add("flagged_error", counts.flaggedError)
        object.add("superseded", counts.superseded)
        object.add("corrupt", summary.corrupt)
        if fromStream {
            object.add("broken", counts.broken)
            object.add("oversized", counts.oversized)
            object.add("skipped_bytes", counts.skippedBytes)
            object.add("stream_ended", summary.streamEnded)
        }
        if retriesDevice { object.add("failed_attempts", summary.failedAttempts) }
        if let value = summary.medianAge { object.add("age_median_ms", value, decimals: 2) } else { object.addNull("age_median_ms") }
        if let value = summary.p99Age { object.add("age_p99_ms", value, decimals: 2) } else { object.addNull("age_p99_ms") }
        if let failure = summary.failure { object.add("error", failure.description) }
        var wrapper = JSONObject()
        wrapper.add("summary", object)
        return wrapper.text
    }

    /// One device's entry in the camera listing: its name and driver, then each format with its
    /// sizes and rates, and for those in the pixel-format table the --pixel-format that picks it.
    public static func deviceListing(path: String, _ description: DeviceDescription, in catalogue: Catalogue = .english) -> String {
        var lines = [catalogue.text("camera.list.device", ["path": path, "card": description.card, "driver": description.driver,
                                                          "bus": description.busInfo])]
        for format in description.formats {
            let use = format.pixelFormat.map { catalogue.text("camera.list.readable", ["value": $0.rawValue]) } ?? catalogue["camera.list.unreadable"]
            lines.append("  \(FourCC.text(format.fourCC)) \(format.name)\(format.compressed ? catalogue["camera.list.compressed"] : "")\(use)")
            switch format.sizes {
            case .discrete(let options):
                for option in options {
                    let rates = option.intervals.map { JSONObject.number($0.framesPerSecond, decimals: 3) }
                    lines.append("    \(option.size)" + (rates.isEmpty ? "" : catalogue.text("camera.list.rates", ["rates": rates.joined(separator: ", ")])))
                }
            case .stepwise(let minimum, let maximum, let step, _):
                lines.append("    " + catalogue.text("camera.list.range", ["minimum": "\(minimum)", "maximum": "\(maximum)", "step": "\(step)"]))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The frame benchmark's report: median and p99 (`LatencyStatistics`) of each path against
    /// invoke, and MJPEG against libjpeg-turbo alone.
    public static func frameBenchmarkReport(_ result: FrameBenchmark.Result, imageName: String, crop: CropMode, iterations: Int) -> String {
        func statistics(_ values: [Double]) -> LatencyStatistics {
            LatencyStatistics(values) ?? LatencyStatistics(count: 0, min: .nan, median: .nan, mean: .nan, standardDeviation: .nan,
                                                           p90: .nan, p99: .nan, max: .nan)
        }
        func milliseconds(_ value: Double) -> String { DecimalText.fixed(value, decimals: 3) }
        let invoke = statistics(result.invoke).median
        let (yuyv, mjpeg, floor) = (statistics(result.yuyv).median, statistics(result.mjpeg).median, statistics(result.mjpegDecoder).median)
        var lines = ["frame -> model input, \(result.frameSize) frames from \(imageName), crop \(crop.rawValue), \(iterations) iterations"]
        for (name, times) in [("YUYV", result.yuyv), ("MJPEG (\(result.mjpegBytes) bytes, no DHT)", result.mjpeg), ("invoke", result.invoke)] {
            let summary = statistics(times)
            let ratio = name == "invoke" ? "" : "  = \(DecimalText.fixed(summary.median / invoke * 100, decimals: 1))% of invoke"
            lines.append("  \(name): median \(milliseconds(summary.median)) ms, p99 \(milliseconds(summary.p99)) ms\(ratio)")
        }
        lines.append("  libjpeg-turbo alone on the MJPEG frame (the floor): median \(milliseconds(floor)) ms; "
            + "MJPEG frame -> model input = \(DecimalText.fixed(mjpeg / floor, decimals: 2))x the floor")
        lines.append("  frame-to-result (median): YUYV \(milliseconds(yuyv + invoke)) ms, MJPEG \(milliseconds(mjpeg + invoke)) ms "
            + "= invoke + \(milliseconds(yuyv)) / \(milliseconds(mjpeg)) ms")
        return lines.joined(separator: "\n")
    }
}
