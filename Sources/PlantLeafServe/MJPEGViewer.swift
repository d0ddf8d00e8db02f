import PlantLeafCore

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
/// by the failed write and its connection ends. Only its connection's thread touches it.
final class MJPEGViewer: HTTPBodyStream, @unchecked Sendable {
    static let boundary = "plantleaf-frame"
    static let contentType = "multipart/x-mixed-replace; boundary=\(boundary)"
    /// Seconds without a new frame before the last one is sent again.
    static let repeatAfter = 5.0

    private let feed: LiveFeed
    private var sent: UInt64 = 0
    private var part: [UInt8] = []
    private var offset = 0

    init(feed: LiveFeed) { self.feed = feed }

    /// A frame as one part of the body: its head, the JPEG, the line break before the next.
    static func part(_ jpeg: [UInt8]) -> [UInt8] {
        Array("--\(boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(jpeg.count)\r\n\r\n".utf8) + jpeg + Array("\r\n".utf8)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        while offset == part.count {
            guard let reading = feed.reading(after: sent, waitingUpTo: MJPEGViewer.repeatAfter) else { return nil }
            sent = reading.number
            // The feed's own bytes, shared: nothing is copied per viewer but into the socket.
            guard let streamPart = reading.streamPart else { continue }
            part = streamPart
            offset = 0
        }
        let count = min(buffer.count, part.count - offset)
        part.withUnsafeBytes { bytes in
            buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}
