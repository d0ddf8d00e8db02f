import PlantLeafCore
import PlantLeafTestSupport
import Testing

@Suite struct FormatDetectionTests {
    @Test func formatComesFromBytesNotName() {
        #expect(ImageFormat.detect(TestImages.png([0, 0, 0], width: 1, height: 1, colorType: 2, bitDepth: 8)) == .png)
        #expect(ImageFormat.detect(TestImages.jpeg([0, 0, 0], width: 1, height: 1)) == .jpeg)
        #expect(ImageFormat.detect(Array("hello, this is text".utf8)) == nil)
    }
}
