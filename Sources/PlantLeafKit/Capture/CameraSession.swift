import Glibc

public struct CameraOptions: Sendable {
    public var devicePath: String
    public var request: CaptureRequest
    public var crop: CropMode
    public var topK: Int
    /// Stop after this many classified frames.
    public var frameLimit: Int?
    /// Stop after this many seconds of streaming.
    public var duration: Double?
    /// Seconds without a frame before giving up.
    public var frameTimeout: Double
    /// Write every classified frame (the model's input) here as JPEG.
    public var saveFramesDirectory: String?
    /// Hand each result the model's input image (`CameraResult.modelInput`), for a preview. Off
    /// by default: a caller that keeps its results would otherwise keep 150 KB of pixels with each.
    public var keepModelInput: Bool

    public init(devicePath: String = "/dev/video0", request: CaptureRequest = CaptureRequest(), crop: CropMode = .center,
                topK: Int = 3, frameLimit: Int? = nil, duration: Double? = nil, frameTimeout: Double = 5,
                saveFramesDirectory: String? = nil, keepModelInput: Bool = false) {
        self.devicePath = devicePath
        self.request = request
        self.crop = crop
        self.topK = topK
        self.frameLimit = frameLimit
        self.duration = duration
        self.frameTimeout = frameTimeout
        self.saveFramesDirectory = saveFramesDirectory
        self.keepModelInput = keepModelInput
    }
}

/// What the camera session settled on, reported before the first frame.
public struct CameraSetup: Sendable {
    public var device: DeviceDescription
    public var plan: CapturePlan
    public var stream: StreamFormat
    public var bufferCount: Int
}

/// One classified frame.
public struct CameraResult: Sendable {
    public var sequence: UInt32
    public var top: [ScoredClass]
    /// From the driver's capture timestamp to the scores being ready.
    public var ageMilliseconds: Double
    /// Frame to model input (conversion and quantisation), and the model run.
    public var prepareMilliseconds: Double
    public var invokeMilliseconds: Double
    public var inferenceFramesPerSecond: Double
    public var counts: CaptureCounts
    /// Set when --save-frames wrote the frame.
    public var savedPath: String?
    /// The image the model classified (cropped and resized to its input size); only with
    /// `CameraOptions.keepModelInput`.
    public var modelInput: RGBImage?
}

public struct CameraSummary: Sendable {
    public var counts: CaptureCounts
    public var classified: Int
    /// Frames the converter refused (damaged MJPEG, short buffers).
    public var corrupt: Int
    public var lastCorruptReason: String?
    public var ages: [Double]
    /// The signal that ended the run (SIGINT, SIGTERM), if one did.
    public var signal: Int32?
    /// Set when the run ended on a fault (camera unplugged, no frames).
    public var failure: CameraError?

    public var medianAge: Double? { percentile(0.5) }
    public var p99Age: Double? { percentile(0.99) }

    /// Nearest-rank percentile of the frame ages.
    func percentile(_ fraction: Double) -> Double? {
        guard !ages.isEmpty else { return nil }
        let sorted = ages.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}

/// Live classification from a V4L2 camera: a capture thread keeps the newest frame, the calling
/// thread (the only one touching LiteRT) classifies it, again and again.
public final class CameraSession {
    public let classifier: Classifier
    public let options: CameraOptions

    public init(classifier: Classifier, options: CameraOptions) {
        self.classifier = classifier
        self.options = options
    }

    /// Opens and configures the camera, then calls `onSetup` once and `onResult` for each
    /// classified frame until the frame limit, the duration, a signal or a fault. Setup faults
    /// are thrown; a fault mid-stream ends the run and is in the summary.
    public func run(onSetup: (CameraSetup) -> Void, onResult: (CameraResult) -> Void) throws(CameraError) -> CameraSummary {
        if let directory = options.saveFramesDirectory {
            do {
                try FileWriter.makeDirectory(directory)
            } catch {
                throw .cannotOpen(path: directory, reason: "cannot make the --save-frames folder: \(error.reason)")
            }
        }
        // First, so a Ctrl-C during set-up also ends the run through the normal path.
        let stop = try StopSignal()
        let device = try V4L2Device(path: options.devicePath)
        let description = device.describe(probing: options.request.size)
        let plan = try FormatNegotiation.choose(options.request, from: description)
        let stream = try device.configure(plan)
        let converter = classifier.frameConverter(for: stream, crop: options.crop)
        let capture = try CaptureStream(device: device)
        defer { capture.stop() }
        onSetup(CameraSetup(device: description, plan: plan, stream: stream, bufferCount: capture.bufferCount))

        try capture.start()
        let mailbox = LatestFrame()
        let loop = CaptureLoop(capture: capture, mailbox: mailbox, stopDescriptor: stop.readEnd,
                               frameTimeout: options.frameTimeout, duration: options.duration)
        let thread = try WorkerThread.capture { loop.run() }
        var summary = classify(from: mailbox, converter: converter, stop: stop, onResult: onResult)
        stop.trigger()
        thread.join()
        capture.stop()
        summary.counts = mailbox.snapshot
        summary.signal = stop.receivedSignal()
        return summary
    }

    private func classify(from mailbox: LatestFrame, converter: FrameConverter, stop: StopSignal,
                          onResult: (CameraResult) -> Void) -> CameraSummary {
        var summary = CameraSummary(counts: CaptureCounts(), classified: 0, corrupt: 0, ages: [])
        var frame = CapturedFrame()
        var recentResults: [UInt64] = []
        while options.frameLimit.map({ summary.classified < $0 }) ?? true {
            if let end = mailbox.take(into: &frame) {
                if case .failed(let error) = end { summary.failure = error }
                break
            }
            let prepared: (image: RGBImage, input: PreparedInput)
            do throws(InputError<FrameError>) {
                prepared = try classifier.prepareInput(frame: frame.bytes, with: converter)
            } catch .unusable(let error) {
                summary.corrupt += 1
                summary.lastCorruptReason = error.description
                continue
            } catch {
                summary.failure = .streamFailed(path: options.devicePath, reason: "inference: \(error)")
                break
            }
            let image = prepared.image
            let classification: Classification
            do {
                classification = try classifier.run(topK: options.topK, timings: prepared.input.timings)
            } catch {
                summary.failure = .streamFailed(path: options.devicePath, reason: "inference: \(error)")
                break
            }
            let now = MonotonicClock.nanoseconds()
            let age = Double(now &- frame.timestamp) / 1e6
            recentResults.append(now)
            if recentResults.count > 11 { recentResults.removeFirst() }
            let inferenceRate = recentResults.count > 1
                ? Double(recentResults.count - 1) * 1e9 / Double(recentResults.last! - recentResults.first!) : 0
            var result = CameraResult(sequence: frame.sequence, top: classification.top, ageMilliseconds: age,
                                      prepareMilliseconds: classification.timings.preprocess,
                                      invokeMilliseconds: classification.timings.invoke,
                                      inferenceFramesPerSecond: inferenceRate, counts: mailbox.snapshot,
                                      modelInput: options.keepModelInput ? image : nil)
            summary.classified += 1
            summary.ages.append(age)
            if let directory = options.saveFramesDirectory {
                do {
                    result.savedPath = try save(image, sequence: frame.sequence, label: classification.top.first?.label ?? "unknown",
                                                in: directory)
                } catch {
                    summary.failure = error
                    break
                }
            }
            onResult(result)
        }
        return summary
    }

    /// frame-000042-Tomato___Early_blight.jpg: the sequence number sorts them, the label says
    /// what the model made of it.
    private func save(_ image: RGBImage, sequence: UInt32, label: String, in directory: String) throws(CameraError) -> String {
        let safeLabel = String(label.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" ? $0 : "_" })
        let digits = String(sequence)
        let path = directory + "/frame-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + "-" + safeLabel + ".jpg"
        do {
            try FileWriter.write(try JPEGEncoder.encode(image), to: path)
        } catch let error as FileWriteError {
            throw .cannotOpen(path: path, reason: "cannot save frame: \(error.reason)")
        } catch {
            throw .cannotOpen(path: path, reason: "cannot encode frame: \(error)")
        }
        return path
    }
}

/// The capture thread's work: dequeue, hand the frame to the mailbox, requeue at once.
private final class CaptureLoop: @unchecked Sendable {
    // Touched only by the capture thread while it runs; the session stops the stream after join.
    let capture: CaptureStream
    let mailbox: LatestFrame
    let stopDescriptor: Int32
    let frameTimeout: Double
    let deadline: UInt64?

    init(capture: CaptureStream, mailbox: LatestFrame, stopDescriptor: Int32, frameTimeout: Double, duration: Double?) {
        self.capture = capture
        self.mailbox = mailbox
        self.stopDescriptor = stopDescriptor
        self.frameTimeout = frameTimeout
        deadline = duration.map { MonotonicClock.nanoseconds() + UInt64($0 * 1e9) }
    }

    func run() {
        do {
            while true {
                var timeout = frameTimeout
                if let deadline {
                    let now = MonotonicClock.nanoseconds()
                    if now >= deadline { return mailbox.finish(.durationReached) }
                    timeout = min(timeout, Double(deadline - now) / 1e9)
                }
                switch try capture.next(timeout: timeout, wakeDescriptor: stopDescriptor) {
                case .frame(let frame):
                    mailbox.put(frame)
                    try capture.requeue(frame.index)
                case .woken:
                    return mailbox.finish(.stopped)
                case nil:
                    if let deadline, MonotonicClock.nanoseconds() >= deadline { return mailbox.finish(.durationReached) }
                    return mailbox.finish(.failed(.noFrame(path: capture.device.path, timeout: frameTimeout)))
                }
            }
        } catch {
            mailbox.finish(.failed(error))
        }
    }
}
