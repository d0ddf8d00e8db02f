import Foundation
import PlantLeafCore
import PlantLeafTestSupport
import Testing

/// The classifier's steps, as the camera, bench and frame benchmark use them.
@Suite struct PipelineStepTests {
    static let sample = TestPaths.plantVillageImages()[0]

    /// A sample photo sent as an MJPEG frame reaches the model as the same pixels as the file.
    @Test func mjpegFrameOfAPictureGivesTheFilePathsPixels() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.sample)))
        let filePath = Resampler.resize(try ImageDecoder(minimumSize: (224, 224)).decode(bytes), width: 224, height: 224)
        let converter = FrameConverter(stream: StreamFormat(format: .mjpeg, size: FrameSize(width: 256, height: 256), bytesPerLine: 0),
                                       crop: .none, outputSize: FrameSize(width: 224, height: 224))
        #expect(try converter.convert(bytes) == filePath)
        // Twice: the second frame reuses the converter's plan and buffers.
        #expect(try converter.convert(bytes) == filePath)
    }

    /// A frame that does not convert is an error from the step, never a stale or empty input.
    @Test func frameThatDoesNotConvertIsAnError() throws {
        let classifier = try Classifier(options: TestPaths.classifierOptions())
        let size = FrameSize(width: 640, height: 480)
        let mjpeg = classifier.frameConverter(for: StreamFormat(format: .mjpeg, size: size, bytesPerLine: 0), crop: .center)
        let yuyv = classifier.frameConverter(for: StreamFormat(format: .yuyv, size: size, bytesPerLine: 1280), crop: .center)
        let text = Array("not a frame".utf8)
        for converter in [mjpeg, yuyv] {
            #expect {
                try classifier.prepareInput(frame: text, with: converter)
            } throws: { error in
                guard case .unusable = error as? InputError<FrameError> else { return false }
                return true
            }
        }
    }
}
