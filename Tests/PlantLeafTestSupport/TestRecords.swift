import PlantLeafCore

/// Readings the journal and serve suites write and read back.
public enum TestRecords {
    /// A camera reading at `time` (ISO 8601); scores that a Float keeps exactly, so it reads back equal.
    public static func reading(_ time: String, verdict: Verdict = .diagnosis, label: String = "Tomato___Early_blight", index: Int = 2,
                               frame: Int = 1) -> ReadingRecord {
        ReadingRecord(frame: frame, time: time, verdict: verdict, reason: verdict == .uncertain ? .lowScore : nil,
                      top: [ScoredClass(index: index, label: label, score: 0.875), ScoredClass(index: 9, label: "Tomato___healthy", score: 0.125)],
                      secondOpinion: .leafLikeness(0.5), ageMilliseconds: 41.25,
                      timings: .init(prepare: 0.75, invoke: 4.5, generalist: 2.25), captureFramesPerSecond: 29.5,
                      inferenceFramesPerSecond: 14.75, dropped: 2)
    }
}
