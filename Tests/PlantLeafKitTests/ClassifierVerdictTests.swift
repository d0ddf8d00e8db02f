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
        let leaf = try Self.classifier(checks: .all).classify(path: TestPaths.healthyTomatoLeaf, topK: 1)
        #expect(leaf.verdict == .diagnosis)
        let unstable = try Self.classifier(checks: .all).classify(path: Self.blackRotLeaf, topK: 1)
        #expect(unstable.top.first?.label == "Apple___Black_rot" && unstable.verdict == .uncertain)
        #expect(try Self.classifier(checks: .classifyDefault).classify(path: Self.blackRotLeaf, topK: 1).verdict == .diagnosis)
    }

    /// The readings are those of the model-size pixels: the 256 x 256 sample resized to 224 x 224.
    @Test func pictureReadingsAreTakenFromTheModelSizePixels() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestPaths.appleScabLeaf)))
        let modelInput = Resampler.resize(try ImageDecoder(minimumSize: (224, 224)).decode(bytes), width: 224, height: 224)
        let result = try Self.classifier(checks: .classifyDefault).classify(bytes: bytes, topK: 1)
        #expect(result.picture == PictureStatistics(image: modelInput))
        #expect(result.picture.pixelCount == 224 * 224)
    }

    /// A leaf sent three times over a pipe: the first frame is a diagnosis, those repeating its
    /// readings exactly are a stalled camera's.
    @Test func cameraFrameRepeatingThePreviousReadingsHasNoPicture() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestPaths.healthyTomatoLeaf)))
        let writeEnd = ends[1]
        let writer = Thread {
            for _ in 0..<3 {
                _ = jpeg.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
                // Slower than a classification, so the session takes every frame rather than the newest.
                usleep(800_000)
            }
            close(writeEnd)
        }
        writer.start()
        let session = CameraSession(classifier: try Self.classifier(checks: .cameraDefault),
                                    options: CameraOptions(frameTimeout: 10, inputPath: "/proc/self/fd/\(ends[0])"))
        var verdicts: [Verdict] = []
        let summary = try session.run(onSetup: { _ in }, onResult: { result in
            verdicts.append(result.verdict)
            return true
        })
        close(ends[0])
        // The stream's end may overtake its last frame in the mailbox, so two or three are classified.
        #expect(verdicts.count >= 2 && verdicts.first == .diagnosis && verdicts.dropFirst().allSatisfy { $0 == .noPicture },
                "\(verdicts) \(summary)")
        #expect(summary.verdicts == [.diagnosis: 1, .noPicture: verdicts.count - 1])
    }
}
