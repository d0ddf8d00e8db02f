import PlantLeafCore
import PlantLeafCamera
import PlantLeafTestSupport
import Testing

/// The motion-JPEG splitter on streams the tests put together from real JPEGs.
@Suite struct MJPEGStreamParserTests {
    /// A small real JPEG (the project's encoder), so frames have every marker a camera writes.
    static let jpeg = TestImages.jpeg(TestImages.quadrants(width: 32, height: 24).pixels, width: 32, height: 24)

    static func parse(_ chunks: [[UInt8]], limit: Int = 1 << 20) -> (events: [MJPEGStreamParser.Event], parser: MJPEGStreamParser) {
        var parser = MJPEGStreamParser(maxFrameBytes: limit)
        var events: [MJPEGStreamParser.Event] = []
        for chunk in chunks { events += chunk.withUnsafeBytes { parser.feed($0) } }
        return (events, parser)
    }

    @Test func framesBackToBackComeOutWhole() {
        let (events, parser) = Self.parse([Self.jpeg + Self.jpeg + Self.jpeg])
        #expect(events == [.frame(Self.jpeg), .frame(Self.jpeg), .frame(Self.jpeg)])
        #expect(parser.skippedBytes == 0 && parser.partialFrameBytes == 0)
    }

    @Test func anySplitOfTheStreamGivesTheSameFrames() {
        let stream = Self.jpeg + Array("--frame\r\n\r\n".utf8) + Self.jpeg
        let (oneByteAtATime, parser) = Self.parse(stream.map { [$0] })
        #expect(oneByteAtATime == [.frame(Self.jpeg), .frame(Self.jpeg)])
        #expect(parser.skippedBytes == 11)
        for split in stride(from: 1, to: stream.count, by: 7) {
            #expect(Self.parse([Array(stream[..<split]), Array(stream[split...])]).events == oneByteAtATime)
        }
    }

    @Test func multipartHeadersAndGarbageAreSkippedAndCounted() {
        let header = Array("HTTP/1.0 200 OK\r\nContent-Type: multipart/x-mixed-replace; boundary=frame\r\n\r\n".utf8)
        let part = Array("--frame\r\nContent-Type: image/jpeg\r\nContent-Length: \(Self.jpeg.count)\r\n\r\n".utf8)
        let garbage: [UInt8] = [0x00, 0xFF, 0x12, 0xFF, 0xFF, 0x0D]
        let stream = header + part + Self.jpeg + Array("\r\n".utf8) + garbage + part + Self.jpeg + Array("\r\n".utf8)
        let (events, parser) = Self.parse([stream])
        #expect(events == [.frame(Self.jpeg), .frame(Self.jpeg)])
        #expect(parser.skippedBytes == header.count + 2 * part.count + 2 * 2 + garbage.count)
    }

    /// An EXIF thumbnail is a whole JPEG inside APP1: its EOI must not end the frame.
    @Test func thumbnailInsideAPP1DoesNotEndTheFrame() {
        let thumbnail = Self.jpeg
        let length = thumbnail.count + 2
        let app1: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + thumbnail
        let framed = Array(Self.jpeg[0..<2]) + app1 + Array(Self.jpeg[2...])
        #expect(Self.parse([framed]).events == [.frame(framed)])
    }

    /// In scan data FF 00 is a stuffed byte and FF D0-D7 a restart marker; neither ends the scan.
    @Test func stuffedBytesAndRestartMarkersStayInTheScan() {
        let scan: [UInt8] = [0xFF, 0xDA, 0x00, 0x02, 0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD3, 0x56, 0xFF, 0xFF, 0xD9]
        let frame: [UInt8] = [0xFF, 0xD8] + scan
        #expect(Self.parse([frame + frame]).events == [.frame(frame), .frame(frame)])
    }

    @Test func aFrameCutOffByTheNextOneIsReportedAndTheNextKept() {
        // Cut inside the scan data, as a camera that stopped mid-frame would.
        let cut = Array(Self.jpeg.prefix(Self.jpeg.count - 4))
        let (events, _) = Self.parse([cut + Self.jpeg])
        #expect(events.count == 2)
        #expect(events.first == .damaged(.cutOff(afterBytes: cut.count)))
        #expect(events.last == .frame(Self.jpeg))
    }

    @Test func aFrameOverTheLimitIsDroppedAndTheNextKept() {
        var big: [UInt8] = [0xFF, 0xD8]
        for _ in 0..<3 { big += [0xFF, 0xE2, 0xFF, 0xFF] + [UInt8](repeating: 7, count: 65533) }
        big += [0xFF, 0xD9]
        // Fed in pieces, as a pipe delivers it: the frame is dropped while it grows.
        let pieces = stride(from: 0, to: big.count, by: 4096).map { Array(big[$0..<min($0 + 4096, big.count)]) }
        let (events, parser) = Self.parse(pieces + [Self.jpeg], limit: 100_000)
        #expect(events == [.oversized(limit: 100_000), .frame(Self.jpeg)])
        #expect(parser.partialFrameBytes == 0)
        // Whole in one read, it is still refused.
        #expect(Self.parse([big + Self.jpeg], limit: 100_000).events == [.oversized(limit: 100_000), .frame(Self.jpeg)])
    }

    @Test func notJPEGInsideAFrameIsDamaged() {
        let (events, _) = Self.parse([[0xFF, 0xD8, 0x12, 0x34] + Self.jpeg])
        #expect(events == [.damaged(.noMarker(atByte: 2)), .frame(Self.jpeg)])
    }

    @Test func aStreamEndingInsideAFrameSaysHowMuchWasLeft() {
        let (events, parser) = Self.parse([Self.jpeg + Array(Self.jpeg.prefix(100))])
        #expect(events == [.frame(Self.jpeg)])
        #expect(parser.partialFrameBytes == 100)
    }
}
