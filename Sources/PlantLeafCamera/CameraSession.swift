import PlantLeafCore
import Glibc
import PlantLeafSupport
import Synchronization

/// Live classification from a V4L2 camera or a motion-JPEG stream: a capture thread keeps the
/// newest frame, and the calling thread hands it to a model instance's worker (`InferenceWorkers`,
/// ahead of any upload waiting for one), again and again — or, with an interval, once per interval.
public final class CameraSession {
    /// The model instances the readings run on: the camera's own, or shared with a server's uploads.
    package let workers: InferenceWorkers
    /// The camera's verdict policy, when it is not that of the instances' options.
    package let verdictPolicy: VerdictPolicy?
    public let options: CameraOptions
    /// Reused while frames keep their format, so resize plans are made once per size.
    private var converter: FrameConverter?
    private var recentResults: [UInt64] = []
    /// The last classified frame's readings: a frame repeating them is the same frame again.
    private var history = PictureHistory()
    /// Stops the run under way from another thread: the session itself stays on the thread that runs it.
    public let stopHandle = StopHandle()

    /// A session that classifies with `classifier`, on a thread of its own; nothing else is
    /// opened until `run`.
    /// - Throws: `CameraError.setupFailed` when the classifier's thread cannot be started.
    public convenience init(classifier: Classifier, options: CameraOptions) throws(CameraError) {
        let workers: InferenceWorkers
        do {
            workers = try InferenceWorkers([classifier])
        } catch {
            throw .setupFailed(path: "plantleaf", step: .startModelThread, reason: .system(SystemError(error.code)))
        }
        self.init(workers: workers, verdictPolicy: nil, options: options)
    }

    /// A session that classifies on `workers`' instances with `verdictPolicy` (nil: the instances' own).
    package init(workers: InferenceWorkers, verdictPolicy: VerdictPolicy?, options: CameraOptions) {
        self.workers = workers
        self.verdictPolicy = verdictPolicy
        self.options = options
    }

    /// Opens the camera or stream, then calls `onSetup` once (with an interval, also whenever a
    /// failed device is back), `onResult` for each classified frame (returning false ends the
    /// run, as a stop would) and `onNotice` for what happens on the way (stream frames dropped,
    /// a camera gone and retried), until the frame limit, the duration, the end of the stream, a
    /// signal or a fault. Setup faults are thrown; a fault mid-stream ends the run and is in the
    /// summary (with an interval a device fault is retried).
    ///
    /// - Throws: `CameraError` when the device or stream cannot be opened or set up, or the
    ///   folder for saved frames cannot be made.
    public func run(onSetup: (CameraSetup) -> Void, onResult: (CameraResult) -> Bool,
                    onNotice: (CameraNotice) -> Void = { _ in }) throws(CameraError) -> CameraSummary {
        try makeSaveFolder()
        // First, so a Ctrl-C during set-up also ends the run through the normal path.
        let stop = try makeStopSignal()
        defer { stopHandle.runEnded() }
        var summary: CameraSummary
        if let inputPath = options.inputPath {
            let reader = try MJPEGStreamReader(path: inputPath, maxFrameBytes: options.maxStreamFrameBytes)
            onSetup(.stream(name: reader.name, maxFrameBytes: options.maxStreamFrameBytes))
            summary = try classifyStream(from: reader, format: StreamFormat(format: .mjpeg, size: FrameSize(width: 0, height: 0), bytesPerLine: 0),
                                         stop: stop, onResult: onResult, onNotice: onNotice)
        } else if options.interval != nil {
            summary = try captureAtIntervals(opening: openDeviceForOneReading, stop: stop, onSetup: onSetup, onResult: onResult, onNotice: onNotice)
        } else {
            let (device, setup) = try openDevice()
            let capture = try CaptureStream(device: device)
            defer { capture.stop() }
            onSetup(.device(DeviceSetup(device: setup.device, plan: setup.plan, stream: setup.stream, bufferCount: capture.bufferCount)))
            try capture.start()
            summary = try classifyStream(from: V4L2FrameSource(capture: capture), format: setup.stream, stop: stop,
                                         onResult: onResult, onNotice: onNotice)
        }
        summary.signal = stop.receivedSignal()
        return summary
    }

    /// Ends a session's run under way (or the next one at its start) from another thread, as
    /// SIGTERM would: a program that waits for signals itself (a server) stops the camera with this.
    public final class StopHandle: Sendable {
        private struct Run {
            /// The run's stop pipe while it runs.
            var active: StopSignal?
            var requested = false
        }

        private let run = Mutex(Run())

        public func stop() {
            run.withLock { run in
                run.requested = true
                run.active?.trigger()
            }
        }

        /// A run starts with `signal` as its stop pipe.
        fileprivate func runStarted(_ signal: StopSignal) {
            run.withLock { run in
                run.active = signal
                if run.requested { signal.trigger() }
            }
        }

        fileprivate func runEnded() {
            run.withLock { $0.active = nil }
        }
    }

    /// The stop pipe for one run, with `stopHandle` wired to it.
    private func makeStopSignal() throws(CameraError) -> StopSignal {
        let stop = try StopSignal()
        stopHandle.runStarted(stop)
        return stop
    }

    /// `run` on a source of the caller's (the tests' scripted ones), as a stream of `format`.
    package func run(source: any FrameSource, format: StreamFormat, onResult: (CameraResult) -> Bool,
                     onNotice: (CameraNotice) -> Void = { _ in }) throws(CameraError) -> CameraSummary {
        try makeSaveFolder()
        let stop = try makeStopSignal()
        defer { stopHandle.runEnded() }
        var summary = try classifyStream(from: source, format: format, stop: stop, onResult: onResult, onNotice: onNotice)
        summary.signal = stop.receivedSignal()
        return summary
    }

    /// `run` at intervals with a camera the caller opens for each reading (the tests' scripted
    /// cameras, which fail as often as a test needs).
    package func runAtIntervals(opening open: () throws(CameraError) -> OpenedCamera, onSetup: (CameraSetup) -> Void = { _ in },
                                onResult: (CameraResult) -> Bool,
                                onNotice: (CameraNotice) -> Void = { _ in }) throws(CameraError) -> CameraSummary {
        try makeSaveFolder()
        let stop = try makeStopSignal()
        defer { stopHandle.runEnded() }
        var summary = try captureAtIntervals(opening: open, stop: stop, onSetup: onSetup, onResult: onResult, onNotice: onNotice)
        summary.signal = stop.receivedSignal()
        return summary
    }

    private func makeSaveFolder() throws(CameraError) {
        guard let directory = options.saveFramesDirectory else { return }
        do {
            try FileWriter.makeDirectory(directory)
        } catch {
            throw .cannotOpen(path: directory, reason: .cannotMakeSaveFolder(error))
        }
    }

    // MARK: a stream of frames

    /// Runs `source` on a capture thread into the one-frame mailbox and classifies from it, the
    /// newest frame each time (with an interval, the newest after each tick).
    private func classifyStream(from source: any FrameSource, format: StreamFormat, stop: StopSignal,
                                onResult: (CameraResult) -> Bool, onNotice: (CameraNotice) -> Void) throws(CameraError) -> CameraSummary {
        let mailbox = LatestFrame()
        let deadline = options.duration.map { MonotonicClock.nanoseconds() + UInt64($0 * 1e9) }
        let loop = CaptureLoop(source: source, mailbox: mailbox, wake: stop.readEnd, frameTimeout: options.frameTimeout, deadline: deadline)
        // Read before the capture thread starts: from then until it is joined, the source is its.
        let sourceName = source.name
        let thread = try WorkerThread.capture { loop.run() }
        var summary = classify(from: mailbox, stream: format, source: sourceName, onResult: onResult, onNotice: onNotice)
        stop.trigger()
        thread.join()
        mailbox.takeNotices().forEach(onNotice)
        summary.counts = mailbox.snapshot
        return summary
    }

    /// Opens the device and sets its format; the description and plan say what was chosen.
    private func openDevice() throws(CameraError) -> (V4L2Device, (device: DeviceDescription, plan: CapturePlan, stream: StreamFormat)) {
        let device = try V4L2Device(path: options.devicePath)
        let description = device.describe(probing: options.request.size)
        let plan = try FormatNegotiation.choose(options.request, from: description)
        let stream = try device.configure(plan)
        return (device, (description, plan, stream))
    }

    private func classify(from mailbox: LatestFrame, stream: StreamFormat, source: String,
                          onResult: (CameraResult) -> Bool, onNotice: (CameraNotice) -> Void) -> CameraSummary {
        var summary = CameraSummary(counts: CaptureCounts(), classified: 0, corrupt: 0, ages: [])
        var frame = Frame()
        var nextTick = MonotonicClock.nanoseconds()
        var firstTick = true
        while options.frameLimit.map({ summary.classified < $0 }) ?? true {
            if let interval = options.interval {
                // One frame per interval: wait for the tick, then take the newest frame after it.
                // The end of the stream, a stop or a time-out ends the wait at once; the frame
                // still waiting at the end of a stream is then the last one classified. The first
                // tick keeps what is waiting: it was captured in this run, and a short stream
                // may already have ended behind it.
                if mailbox.waitForEnd(until: nextTick) == nil {
                    nextTick += UInt64(interval * 1e9)
                    if !firstTick { mailbox.discardPending() }
                    firstTick = false
                }
            }
            let end = mailbox.take(into: &frame)
            mailbox.takeNotices().forEach(onNotice)
            if let end {
                switch end {
                case .failed(let error): summary.failure = error
                case .endOfStream: summary.streamEnded = true
                case .stopped, .durationReached: break
                }
                break
            }
            if !classifyFrame(&frame, newer: mailbox, stream: stream, source: source, counts: mailbox.snapshot, into: &summary,
                              onResult: onResult) { break }
        }
        return summary
    }

    // MARK: V4L2, one frame per interval

    /// A camera opened for one reading: a source streaming from it, what was set up, and how to
    /// close it again.
    package struct OpenedCamera {
        package var source: any FrameSource
        package var setup: DeviceSetup
        package var close: () -> Void

        package init(source: any FrameSource, setup: DeviceSetup, close: @escaping () -> Void) {
            self.source = source
            self.setup = setup
            self.close = close
        }
    }

    private func openDeviceForOneReading() throws(CameraError) -> OpenedCamera {
        let (device, setup) = try openDevice()
        let capture = try CaptureStream(device: device)
        try capture.start()
        return OpenedCamera(source: V4L2FrameSource(capture: capture),
                            setup: DeviceSetup(device: setup.device, plan: setup.plan, stream: setup.stream, bufferCount: capture.bufferCount),
                            close: { capture.stop() })
    }

    /// Opens the camera for each interval, takes one settled frame and closes it again, so the
    /// camera idles in between; a camera that fails (unplugged, busy, gone) is reported and
    /// retried with growing pauses until it is back.
    private func captureAtIntervals(opening open: () throws(CameraError) -> OpenedCamera, stop: StopSignal,
                                    onSetup: (CameraSetup) -> Void, onResult: (CameraResult) -> Bool,
                                    onNotice: (CameraNotice) -> Void) throws(CameraError) -> CameraSummary {
        var summary = CameraSummary(counts: CaptureCounts(), classified: 0, corrupt: 0, ages: [])
        let interval = options.interval ?? 1
        let deadline = options.duration.map { MonotonicClock.nanoseconds() + UInt64($0 * 1e9) }
        var nextTick = MonotonicClock.nanoseconds()
        var retryPause = options.retryPauses.first
        var failing = false
        var announced = false
        var frame = Frame()
        while options.frameLimit.map({ summary.classified < $0 }) ?? true {
            if !wait(until: nextTick, deadline: deadline, stop: stop) { break }
            let stream: StreamFormat
            do throws(CameraError) {
                let camera = try open()
                defer { camera.close() }
                // Said once at the start, and again when a camera that failed is back.
                if !announced || failing { onSetup(.device(camera.setup)) }
                guard try settledFrame(from: camera.source, stop: stop, into: &frame) else { break }
                stream = camera.setup.stream
            } catch {
                // A camera that never worked is a set-up error, as without an interval; one
                // that did is waited for.
                guard announced else { throw error }
                summary.failedAttempts += 1
                failing = true
                onNotice(.retrying(error, pause: retryPause))
                nextTick = MonotonicClock.nanoseconds() + UInt64(retryPause * 1e9)
                retryPause = min(retryPause * 2, options.retryPauses.last)
                continue
            }
            if failing {
                onNotice(.cameraBack(device: options.devicePath, failedAttempts: summary.failedAttempts))
                failing = false
                retryPause = options.retryPauses.first
            }
            announced = true
            nextTick = max(nextTick + UInt64(interval * 1e9), MonotonicClock.nanoseconds())
            summary.counts.captured += 1
            if !classifyFrame(&frame, newer: nil, stream: stream, source: options.devicePath, counts: summary.counts, into: &summary,
                              onResult: onResult) { break }
        }
        return summary
    }

    /// Takes frames from `source` until `settleFrames` good ones have passed (while the
    /// camera's automatic exposure settles) and copies the next into `frame`. False when stopped.
    ///
    /// - Throws: `CameraError.noFrame` when no frame comes for `frameTimeout` seconds, or the
    ///   source's own error.
    private func settledFrame(from source: any FrameSource, stop: StopSignal, into frame: inout Frame) throws(CameraError) -> Bool {
        let mailbox = LatestFrame()
        var frameDeadline = MonotonicClock.nanoseconds() + UInt64(options.frameTimeout * 1e9)
        while true {
            switch try source.next(until: frameDeadline, wake: stop.readEnd, into: mailbox) {
            case .delivered:
                frameDeadline = MonotonicClock.nanoseconds() + UInt64(options.frameTimeout * 1e9)
                if mailbox.snapshot.captured > options.settleFrames {
                    _ = mailbox.take(into: &frame)
                    return true
                }
            case .waiting:
                if MonotonicClock.nanoseconds() >= frameDeadline { throw .noFrame(path: source.name, timeout: options.frameTimeout) }
            case .woken:
                return false
            case .ended:
                throw .streamFailed(path: source.name, reason: .stoppedSending)
            }
        }
    }

    /// Sleeps until `instant` (monotonic); false when a stop came or the deadline passed first.
    private func wait(until instant: UInt64, deadline: UInt64?, stop: StopSignal) -> Bool {
        while true {
            let now = MonotonicClock.nanoseconds()
            if let deadline, now >= deadline { return false }
            guard now < instant else { return true }
            let end = min(instant, deadline ?? instant)
            var descriptor = pollfd(fd: stop.readEnd, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, MonotonicClock.pollTimeout(until: end)) > 0 { return false }
        }
    }

    // MARK: one frame

    /// Classifies one frame and reports it; false when the run must end (a failure is then in
    /// the summary, or `onResult` asked to stop). When an instance is free, a frame that came
    /// into `newer` meanwhile replaces `frame`: the reading is of the freshest frame there is.
    private func classifyFrame(_ frame: inout Frame, newer: LatestFrame?, stream: StreamFormat, source: String, counts: CaptureCounts,
                               into summary: inout CameraSummary, onResult: (CameraResult) -> Bool) -> Bool {
        let (crop, verdictPolicy, readings) = (options.crop, verdictPolicy, history)
        var converter = converter
        let read: Result<(image: RGBImage, classification: Classification), InputError<FrameError>> = workers.runAhead { classifier in
            newer?.takeNewer(into: &frame)
            let current = converter.flatMap { $0.stream == stream ? $0 : nil } ?? classifier.frameConverter(for: stream, crop: crop)
            converter = current
            do throws(InputError<FrameError>) {
                let prepared = try classifier.prepareInput(frame: frame.bytes, with: current)
                do throws(RuntimeError) {
                    return .success((prepared.image, try classifier.run(timings: prepared.input.timings, history: readings, verdictPolicy: verdictPolicy)))
                } catch {
                    return .failure(.runtime(error))
                }
            } catch {
                return .failure(error)
            }
        }
        self.converter = converter
        let image: RGBImage, classification: Classification
        switch read {
        case .success(let answer):
            (image, classification) = answer
        case .failure(.unusable(let error)):
            summary.corrupt += 1
            summary.lastCorruptFrame = error
            return true
        case .failure(.runtime(let error)):
            summary.failure = .streamFailed(path: source, reason: .inference(error))
            return false
        }
        history.record(classification.picture)
        let now = MonotonicClock.nanoseconds()
        let age = Double(now &- frame.timestamp) / 1e6
        recentResults.append(now)
        if recentResults.count > 11 { recentResults.removeFirst() }
        let inferenceRate = recentResults.count > 1
            ? Double(recentResults.count - 1) * 1e9 / Double(recentResults.last! - recentResults.first!) : 0
        var result = CameraResult(sequence: frame.sequence, time: WallClock.localISO8601(nanoseconds: WallClock.nanoseconds(ofMonotonic: frame.timestamp)),
                                  top: classification.top, verdict: classification.verdict, ageMilliseconds: age,
                                  prepareMilliseconds: classification.timings.prepare,
                                  invokeMilliseconds: classification.timings.invoke,
                                  inferenceFramesPerSecond: inferenceRate, counts: counts,
                                  modelInput: options.keepModelInput ? image : nil)
        result.reason = classification.reason
        result.secondOpinion = classification.secondOpinion
        result.generalistMilliseconds = classification.timings.generalist
        result.lessons = classification
        summary.classified += 1
        summary.verdicts[classification.verdict, default: 0] += 1
        summary.ages.append(age)
        if let directory = options.saveFramesDirectory {
            do {
                result.savedPath = try save(image, sequence: frame.sequence,
                                            label: classification.top.first?.label ?? "unknown", in: directory)
            } catch {
                summary.failure = error
                return false
            }
        }
        return onResult(result)
    }

    /// frame-000042-Tomato___Early_blight.jpg: the sequence number sorts them, the label says
    /// what the model made of it (at most 100 bytes of it, so any label makes a valid name). A
    /// name already taken (an earlier run into the same folder) gets -2, -3 …: frames are never
    /// overwritten.
    private func save(_ image: RGBImage, sequence: UInt32, label: String, in directory: String) throws(CameraError) -> String {
        var safeLabel = ""
        for character in label {
            let safe: Character = character.isLetter || character.isNumber || character == "_" || character == "-" ? character : "_"
            guard safeLabel.utf8.count + String(safe).utf8.count <= 100 else { break }
            safeLabel.append(safe)
        }
        let digits = String(sequence)
        let stem = "frame-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + "-" + safeLabel
        let jpeg: [UInt8]
        do {
            jpeg = try JPEGEncoder.encode(image)
        } catch {
            throw .cannotOpen(path: directory + "/" + stem + ".jpg", reason: .cannotEncodeFrame(error))
        }
        do {
            return try FileWriter.writeNew(jpeg, in: directory, stem: stem, suffix: ".jpg")
        } catch {
            throw .cannotOpen(path: directory + "/" + stem + ".jpg", reason: .cannotSaveFrame(error))
        }
    }
}
