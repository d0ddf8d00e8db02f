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

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        while offset == part.count {
            guard let reading = feed.reading(after: sent, waitingUpTo: MJPEGViewer.repeatAfter) else { return nil }
            sent = reading.number
            guard let jpeg = reading.frameJPEG else { continue }
            let head = "--\(MJPEGViewer.boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(jpeg.count)\r\n\r\n"
            part = Array(head.utf8) + jpeg + Array("\r\n".utf8)
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
