import PlantLeafCore
import Synchronization

/// A body the server sends as it is made, for as long as the client reads: `read` fills the
/// buffer and returns the byte count, or nil at the end. It runs on the connection's own thread
/// and may wait there.
public protocol HTTPBodyStream: AnyObject, Sendable {
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int?
}

/// One viewer of `/stream.mjpg`: each new frame of the feed as a part of a
/// multipart/x-mixed-replace body, the way motion and ustreamer serve a camera. A viewer slower
/// than the camera is sent the newest frame when it is ready for one, never a queue of old ones;
/// with no new frame for a while the last one is sent again, so a viewer that has gone is noticed
/// by the failed write and its connection ends.
final class MJPEGViewer: HTTPBodyStream {
    static let boundary = "plantleaf-frame"
    static let contentType = "multipart/x-mixed-replace; boundary=\(boundary)"
    /// Seconds without a new frame before the last one is sent again: long enough to cost a
    /// viewer of a still picture little, short enough that a viewer gone is noticed soon.
    static let defaultRepeatAfter = 5.0

    private struct Position {
        /// The number of the reading whose part is being sent.
        var sent: UInt64 = 0
        var part: [UInt8] = []
        var offset = 0
    }

    private let feed: LiveFeed
    private let repeatAfter: Double
    /// A body stream is Sendable (a response may be made on one thread and sent from another);
    /// the library reads each on its connection's thread alone, so this lock is never contended.
    private let position = Mutex(Position())

    /// A viewer of `feed` that sends its last frame again after `repeatAfter` seconds without a new one.
    init(feed: LiveFeed, repeatAfter: Double = MJPEGViewer.defaultRepeatAfter) {
        self.feed = feed
        self.repeatAfter = repeatAfter
    }

    /// A frame as one part of the body: its head, the JPEG, the line break before the next.
    static func part(_ jpeg: [UInt8]) -> [UInt8] {
        Array("--\(boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(jpeg.count)\r\n\r\n".utf8) + jpeg + Array("\r\n".utf8)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        position.withLock { position in
            while position.offset == position.part.count {
                guard let reading = feed.reading(after: position.sent, waitingUpTo: repeatAfter) else { return nil }
                position.sent = reading.number
                // The feed's own bytes, shared: nothing is copied per viewer but into the socket.
                guard let streamPart = reading.streamPart else { continue }
                position.part = streamPart
                position.offset = 0
            }
            let count = min(buffer.count, position.part.count - position.offset)
            position.part.withUnsafeBytes { bytes in
                buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + position.offset, byteCount: count)
            }
            position.offset += count
            return count
        }
    }
}
