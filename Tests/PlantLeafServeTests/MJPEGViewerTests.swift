import Foundation
import PlantLeafCore
@testable import PlantLeafServe
import PlantLeafTestSupport
import Testing

/// /stream.mjpg's body as a viewer reads it: the newest frame, the same again when the camera
/// sends none for a while (so a viewer that has gone is noticed by the failed write), and the end
/// once the server closes the feed.
@Suite struct MJPEGViewerTests {
    static let first: [UInt8] = [0xFF, 0xD8, 1, 2, 3, 0xFF, 0xD9], second: [UInt8] = [0xFF, 0xD8, 4, 5, 0xFF, 0xD9]

    /// One whole part of the body, read in pieces of at most `chunk` bytes as a socket would take
    /// them; nil when the body has ended.
    static func nextPart(_ viewer: MJPEGViewer, length: Int, chunk: Int = 5) -> [UInt8]? {
        var part: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunk)
        while part.count < length {
            let count = buffer.withUnsafeMutableBytes { viewer.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<min(chunk, length - part.count)])) }
            guard let count else { return nil }
            part += buffer.prefix(count)
        }
        return part
    }

    @Test func theLastFrameIsSentAgainUntilANewOneComes() {
        let feed = LiveFeed()
        feed.publish(TestRecords.reading("2026-12-07T10:00:00Z"), frameJPEG: Self.first)
        let viewer = MJPEGViewer(feed: feed, repeatAfter: 0.05)
        let firstPart = MJPEGViewer.part(Self.first), secondPart = MJPEGViewer.part(Self.second)
        #expect(Self.nextPart(viewer, length: firstPart.count) == firstPart)
        // No new frame within the wait: the same part again, whole.
        #expect(Self.nextPart(viewer, length: firstPart.count) == firstPart)
        feed.publish(TestRecords.reading("2026-12-07T10:00:01Z"), frameJPEG: Self.second)
        #expect(Self.nextPart(viewer, length: secondPart.count) == secondPart)
        // A reading without a frame keeps the last frame: it is what the viewer is sent.
        feed.publish(TestRecords.reading("2026-12-07T10:00:02Z"), frameJPEG: nil)
        #expect(Self.nextPart(viewer, length: secondPart.count) == secondPart)
    }

    /// A viewer waiting for the next frame is let go at once when the server stops, however long
    /// its wait.
    @Test(.timeLimit(.minutes(1))) func closingTheFeedEndsTheBody() {
        let feed = LiveFeed()
        feed.publish(TestRecords.reading("2026-12-07T10:00:00Z"), frameJPEG: Self.first)
        let viewer = MJPEGViewer(feed: feed, repeatAfter: 3600)
        let firstPart = MJPEGViewer.part(Self.first)
        #expect(Self.nextPart(viewer, length: firstPart.count) == firstPart)
        let closer = Thread { feed.close() }
        closer.start()
        #expect(Self.nextPart(viewer, length: firstPart.count) == nil)
    }
}
