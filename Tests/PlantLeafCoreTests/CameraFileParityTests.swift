import PlantLeafCore
import PlantLeafTestSupport
import Testing

/// A picture seen by the camera and the same picture read from a file give the same answer:
/// the YUYV frame converted exactly (the per-pixel formula, as a straightforward reference)
/// and saved as a PNG is what the frame path must see, so the model's outputs match.
@Suite struct CameraFileParityTests {
    @Test(arguments: [TestPaths.appleScabLeaf, TestPaths.healthyTomatoLeaf])
    func yuyvFrameAndFileGiveTheSameTopClasses(leafPath: String) throws {
        let classifier = try Classifier(options: TestPaths.classifierOptions())
        let leaf = try ImageDecoder().decode(try FileReader.readAll(path: leafPath))
        let size = FrameSize(width: 640, height: 480)
        let frame = YCbCr.yuyv(from: Resampler.resize(leaf, width: size.width, height: size.height))
        var exact: [UInt8] = []
        for pair in stride(from: 0, to: frame.count, by: 4) {
            for luma in [frame[pair], frame[pair + 2]] {
                let (r, g, b) = YCbCr.rgb(y: luma, cb: frame[pair + 1], cr: frame[pair + 3])
                exact += [r, g, b]
            }
        }
        let file = TestImages.png(exact, width: size.width, height: size.height, colorType: 2, bitDepth: 8)

        _ = try classifier.prepareInput(bytes: file)
        let fromFile = try classifier.run().top
        let stream = StreamFormat(format: .yuyv, size: size, bytesPerLine: size.width * 2)
        let converter = classifier.frameConverter(for: stream, crop: classifier.options.crop)
        _ = try classifier.prepareInput(frame: frame, with: converter)
        let fromFrame = try classifier.run().top

        #expect(fromFrame.first?.index == fromFile.first?.index)
        // The pixels are the same, so the outputs are too, not merely the ranking.
        #expect(fromFrame.map(\.index) == fromFile.map(\.index) && fromFrame.map(\.score) == fromFile.map(\.score),
                "frame \(fromFrame.map { ($0.index, $0.score) }) vs file \(fromFile.map { ($0.index, $0.score) })")
    }
}
