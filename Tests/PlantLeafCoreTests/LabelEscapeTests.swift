import PlantLeafCore
import PlantLeafSupport
import PlantLeafTestSupport
import Testing

/// Label names come from a file anyone may have written; where they reach a terminal (text and
/// CSV) escape sequences and bidirectional overrides are shown as \xHH, while JSON keeps them exact.
@Suite struct LabelEscapeTests {
    static let hostile = "Apple___\u{1B}]0;pwned\u{7}scab\u{202E}gpj.exe\u{9B}2J"
    static let shown = #"Apple — \x1b]0;pwned\x07scab\xe2\x80\xaegpj.exe\xc2\x9b2J"#
    static let result = Classification(top: [ScoredClass(index: 0, label: hostile, score: 0.5)], verdict: .diagnosis, timings: StageTimings())

    @Test func textAndCSVNeutraliseJSONStaysExact() {
        #expect(ClassificationOutput.record(Self.result, path: PathName("leaf.jpg"), format: .text, catalogue: .english) == "leaf.jpg\n  Diagnosis: the top class is the answer\n   50.0%  " + Self.shown)
        let csv = ClassificationOutput.record(Self.result, path: PathName("leaf.jpg"), format: .csv, catalogue: .english)
        #expect(csv == #"leaf.jpg,diagnosis,1,0,Apple___\x1b]0;pwned\x07scab\xe2\x80\xaegpj.exe\xc2\x9b2J,0.5,0,0,0,0,,,,"# + Self.shown + ",model,")
        let json = ClassificationOutput.record(Self.result, path: PathName("leaf.jpg"), format: .json, catalogue: .english)
        #expect(json.contains(#""label": "Apple___\u001b]0;pwned\u0007scab"# + "\u{202E}" + #"gpj.exe\u009b2J""#))
        #expect(Labels.displayName("Tomato___Early_blight") == "Tomato — Early blight")
    }

    @Test func endToEndTheTerminalGetsNoEscapeSequence() throws {
        let folder = TestPaths.temporaryDirectory()
        defer { TestPaths.removeTemporaryDirectory(folder) }
        var names = try String(decoding: FileReader.readAll(path: TestPaths.labels), as: UTF8.self).split(separator: "\n").map(String.init)
        let scab = try #require(names.firstIndex(of: "Apple___Apple_scab"))
        names[scab] = "Apple___\u{1B}[2J\u{202E}scab"
        let labels = folder + "/labels.txt"
        TestImages.write(Array((names.joined(separator: "\n") + "\n").utf8), to: labels)
        for format in ["text", "csv"] {
            let result = try runPlantLeaf(["classify", "--labels", labels, "--top-k", "1", "--format", format, TestPaths.appleScabLeaf])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" }, "\(format)")
            #expect(result.stdout.contains(#"\x1b[2J\xe2\x80\xaescab"#), "\(format): \(result.stdout)")
        }
    }
}
