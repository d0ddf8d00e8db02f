import Foundation
import Glibc
import PlantLeafCore
import PlantLeafCamera
import PlantLeafTestSupport
import Testing

/// The verdict as the classifier and the camera session decide it.
@Suite struct ClassifierVerdictTests {
    /// The model gets this leaf right at 0.980, and mirrored left to right only at 0.449
    /// (docs/verdicts.md), so only the mirror check turns it uncertain.
    static let blackRotLeaf = TestPaths.plantVillage + "/Apple___Black_rot/0090d05d-d797-4c99-abd4-3b9cb323a5fd___JR_FrgE.S 8727.JPG"

    static func classifier(checks: VerdictChecks) throws -> Classifier {
        var options = TestPaths.classifierOptions()
        options.verdictPolicy = VerdictPolicy(checks: checks)
        return try Classifier(options: options)
    }

    @Test func mirrorCheckClassifiesTheMirroredTensor() throws {
        let leaf = try Self.classifier(checks: .all).classify(path: TestPaths.healthyTomatoLeaf)
        #expect(leaf.verdict == .diagnosis)
        let unstable = try Self.classifier(checks: .all).classify(path: Self.blackRotLeaf)
        #expect(unstable.top.first?.label == "Apple___Black_rot" && unstable.verdict == .uncertain)
        #expect(try Self.classifier(checks: .classifyDefault).classify(path: Self.blackRotLeaf).verdict == .diagnosis)
    }

    /// The readings are those of the model-size pixels: the 256 x 256 sample resized to 224 x 224.
    @Test func pictureReadingsAreTakenFromTheModelSizePixels() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestPaths.appleScabLeaf)))
        let modelInput = Resampler.resize(try ImageDecoder(minimumSize: (224, 224)).decode(bytes), width: 224, height: 224)
        let result = try Self.classifier(checks: .classifyDefault).classify(bytes: bytes)
        #expect(result.picture == PictureStatistics(image: modelInput))
        #expect(result.picture.pixelCount == 224 * 224)
    }

    /// The same leaf frame again and again: the first readings are diagnoses, and from the
    /// policy's fifth reading running with the same picture on, a stuck camera's no-picture.
    @Test func cameraFrameRepeatingTheSameReadingsHasNoPicture() throws {
        // Each frame once the one before it is read, so the session takes every frame rather than
        // the newest, however long a classification takes here.
        let source = ScriptedFrameSource(Array(repeating: .frameAfterReading, count: 7) + [.end(after: 0.25)],
                                         frame: try FileReader.readAll(path: TestPaths.healthyTomatoLeaf))
        var options = TestPaths.classifierOptions()
        options.verdictPolicy = VerdictPolicy(checks: .cameraDefault)
        let session = try CameraSession(classifier: try Classifier(options: options), options: CameraOptions(frameTimeout: 10))
        var verdicts: [Verdict] = []
        let summary = try session.run(source: source, format: StreamFormat(format: .mjpeg, size: FrameSize(width: 0, height: 0), bytesPerLine: 0),
                                      onResult: { result in
            verdicts.append(result.verdict)
            source.readingMade()
            return true
        })
        #expect(verdicts.count >= 6, "\(verdicts) \(summary)")
        #expect(Array(verdicts.prefix(4)) == Array(repeating: .diagnosis, count: 4), "\(verdicts)")
        #expect(verdicts.dropFirst(4).allSatisfy { $0 == .noPicture }, "\(verdicts)")
        #expect(summary.verdicts == [.diagnosis: 4, .noPicture: verdicts.count - 4])
    }
}
