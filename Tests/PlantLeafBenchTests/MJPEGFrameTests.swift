import PlantLeafCore
import PlantLeafBench
import PlantLeafTestSupport
import Testing

@Suite struct MJPEGFrameTests {
    let picture = TestImages.bands(width: 320, height: 240)
    let converter = FrameConverter(stream: StreamFormat(format: .mjpeg, size: FrameSize(width: 320, height: 240), bytesPerLine: 0),
                                   crop: .center, outputSize: FrameSize(width: 112, height: 112))

    var jpeg: [UInt8] { TestImages.jpeg(picture.pixels, width: 320, height: 240, quality: 90) }

    /// UVC cameras leave out the Huffman tables (DHT) when they are the standard ones.
    @Test func frameWithoutHuffmanTablesDecodesLikeTheFullFile() throws {
        let stripped = FrameBenchmark.strippingHuffmanTables(jpeg)
        let markers = zip(stripped, stripped.dropFirst()).filter { $0 == 0xFF && $1 == 0xC4 }
        #expect(markers.isEmpty)
        #expect(stripped.count < jpeg.count - 400)
        #expect(try converter.convert(stripped) == converter.convert(jpeg))
    }

    @Test func bytesAfterTheEndMarkerAreIgnored() throws {
        #expect(try converter.convert(jpeg + [UInt8](repeating: 0, count: 100_000)) == converter.convert(jpeg))
    }

    @Test func damagedFramesAreRefused() {
        #expect(throws: FrameError.self) { try converter.convert(Array(jpeg.prefix(jpeg.count / 2))) }
        var scrambled = jpeg
        for index in stride(from: scrambled.count / 2, to: scrambled.count - 2, by: 7) { scrambled[index] = 0xFF }
        #expect(throws: FrameError.self) { try converter.convert(scrambled) }
    }
}
