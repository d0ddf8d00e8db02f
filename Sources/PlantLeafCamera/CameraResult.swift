import PlantLeafCore

/// One classified frame.
public struct CameraResult: Sendable {
    public var sequence: UInt32
    /// When the frame was captured, on the wall clock: ISO 8601 local time with its offset.
    public var time: String
    public var top: [ScoredClass]
    /// Whether `top` may be read as an answer; a frame whose readings repeat the previous frames'
    /// (`VerdictPolicy.unchangedReadings` of them)
    /// is `no-picture` (a stalled camera) when the picture check runs.
    public var verdict: Verdict
    /// Why it is not a diagnosis, and the generalist check's reading.
    public var reason: VerdictReason?
    public var secondOpinion: SecondOpinionReading = .notRun
    /// From the driver's capture timestamp to the scores being ready.
    public var ageMilliseconds: Double
    /// Frame to model input (conversion and quantisation), and the model run.
    public var prepareMilliseconds: Double
    public var invokeMilliseconds: Double
    /// The generalist model's run on the same frame (0 when its check does not run).
    public var generalistMilliseconds: Double = 0
    public var inferenceFramesPerSecond: Double
    public var counts: CaptureCounts
    /// Where the frame was saved, when `CameraOptions.saveFramesDirectory` is set.
    public var savedPath: String?
    /// The image the model classified (cropped and resized to its input size); only with
    /// `CameraOptions.keepModelInput`.
    public var modelInput: RGBImage?
    /// The classification's answer source and taught class (the record's lessons fields).
    public var lessons: Classification?

    /// The frame's `ReadingRecord`, the line `camera` prints and logs, MQTT publishes and serve
    /// answers with.
    public var record: ReadingRecord {
        ReadingRecord(frame: Int(sequence), time: time, verdict: verdict, reason: reason, top: top, secondOpinion: secondOpinion,
                      ageMilliseconds: ageMilliseconds,
                      timings: ReadingRecord.Timings(prepare: prepareMilliseconds, invoke: invokeMilliseconds,
                                                     generalist: secondOpinion.leafLikeness == nil ? nil : generalistMilliseconds),
                      captureFramesPerSecond: counts.framesPerSecond, inferenceFramesPerSecond: inferenceFramesPerSecond,
                      dropped: counts.dropped, saved: savedPath)
            .withAnswerSource(of: lessons)
    }
}
