import PlantLeafCore
import PlantLeafSupport
import Testing

/// classify's three output forms, whole, from a result made here.
@Suite struct ClassificationOutputTests {
    static let result = Classification(
        top: [ScoredClass(index: 1, label: "Apple___Black_rot", score: 0.9961), ScoredClass(index: 3, label: "Apple___healthy", score: 0.0039)],
        verdict: .diagnosis, timings: StageTimings(read: 0.0412, prepare: 0.8123, invoke: 4.2, postprocess: 0.0041))

    @Test func textLeadsWithTheVerdictThenShowsPercentagesAndDisplayNames() {
        #expect(ClassificationOutput.record(Self.result, path: PathName("leaf.jpg"), format: .text, catalogue: .english)
            == "leaf.jpg\n  Diagnosis: the top class is the answer\n   99.6%  Apple — Black rot\n    0.4%  Apple — healthy")
    }

    /// Every verdict but a diagnosis says so in plain words first, its name after, and the scores
    /// stay as the model gave them.
    @Test func textSaysAnythingButADiagnosisIsNone() {
        var result = Self.result
        for verdict in [Verdict.uncertain, .noLeaf, .noPicture] {
            result.verdict = verdict
            let lines = ClassificationOutput.record(result, path: PathName("leaf.jpg"), format: .text, catalogue: .english).split(separator: "\n")
            #expect(lines[1] == "  " + Catalogue.english.heading(verdict) + " (\(verdict.rawValue)): not a diagnosis")
            #expect(lines.dropFirst(2) == ["   99.6%  Apple — Black rot", "    0.4%  Apple — healthy"])
        }
    }

    @Test func jsonCarriesTheVerdictBeforeTheTopAndTheStagesByTheirOneName() {
        #expect(ClassificationOutput.record(Self.result, path: PathName("leaf.jpg"), format: .json, catalogue: .english)
            == #"{"schema": 2, "path": "leaf.jpg", "verdict": "diagnosis", "advice": "#
            + JSONObject.quote(Catalogue.english.diagnosisAdvice("Apple___Black_rot", for: .photo))
            + #", "answer_from": "model", "top": [{"index": 1, "label": "Apple___Black_rot", "score": 0.9961, "display": "Apple — Black rot"}, "#
            + #"{"index": 3, "label": "Apple___healthy", "score": 0.0039, "display": "Apple — healthy"}], "#
            + #""timing_ms": {"read": 0.041, "prepare": 0.812, "invoke": 4.2, "postprocess": 0.004}}"#)
    }

    @Test func csvRowsMatchTheHeaderAndQuoteWhatNeedsIt() throws {
        let rows = ClassificationOutput.record(Self.result, path: PathName("a,\"b\".jpg"), format: .csv, catalogue: .english).split(separator: "\n")
        #expect(ClassificationOutput.csvHeader
            == "path,verdict,rank,index,label,score,read_ms,prepare_ms,invoke_ms,postprocess_ms,reason,leaf_likeness,generalist_ms,display,answer_from,taught")
        #expect(rows == [#""a,""b"".jpg",diagnosis,1,1,Apple___Black_rot,0.9961,0.041,0.812,4.2,0.004,,,,Apple — Black rot,model,"#,
                         #""a,""b"".jpg",diagnosis,2,3,Apple___healthy,0.0039,0.041,0.812,4.2,0.004,,,,Apple — healthy,model,"#])
        // A result the generalist checked and refused: its reason, likeness and time fill the last columns.
        var refused = Self.result
        (refused.verdict, refused.reason, refused.secondOpinion) = (.noLeaf, .unlikeLeaves, .leafLikeness(0.01234))
        refused.timings.generalist = 6.8
        #expect(ClassificationOutput.record(refused, path: PathName("dog.jpg"), format: .csv, catalogue: .english).split(separator: "\n").first
            == "dog.jpg,no-leaf,1,1,Apple___Black_rot,0.9961,0.041,0.812,4.2,0.004,unlike-leaves,0.0123,6.8,Apple — Black rot,model,")
        // A photo the grower's lessons named: the source and the taught name, in JSON and CSV alike.
        var taught = Self.result
        taught.source = .lessons
        taught.taught = TaughtClasses.Match(className: "خيار — البياض الزغبي", similarity: 0.61234, threshold: 0.4, runnerUp: nil,
                                            runnerUpSimilarity: nil, nearestModelSimilarity: 0.2, wins: true, closeToAnother: false)
        #expect(ClassificationOutput.record(taught, path: PathName("c.jpg"), format: .csv, catalogue: .english).split(separator: "\n").first?
            .hasSuffix(",Apple — Black rot,lessons,خيار — البياض الزغبي") == true)
        let json = ClassificationOutput.record(taught, path: PathName("c.jpg"), format: .json, catalogue: .english)
        #expect(json.contains(#""verdict": "diagnosis", "answer_from": "lessons", "taught": "خيار — البياض الزغبي", "taught_similarity": 0.6123, "top""#))
        #expect(try ReadingRecord(decoding: Array(json.utf8)).taught == "خيار — البياض الزغبي")
    }

    @Test func failuresHaveARecordOnlyInJSON() {
        let path = PathName(bytes: [0x6C, 0xFF, 0x2E, 0x6A, 0x70, 0x67])
        #expect(ClassificationOutput.failureRecord(path: path, reason: "empty file (0 bytes)", format: .json)
            == #"{"schema": 2, "path": "l\\xff.jpg", "path_hex": "6cff2e6a7067", "error": "empty file (0 bytes)"}"#)
        #expect(ClassificationOutput.failureRecord(path: path, reason: "x", format: .text) == nil)
        #expect(ClassificationOutput.failureRecord(path: path, reason: "x", format: .csv) == nil)
    }
}
