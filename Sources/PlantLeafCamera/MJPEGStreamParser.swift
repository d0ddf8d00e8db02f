import PlantLeafCore
/// Splits a motion-JPEG byte stream into whole JPEG frames: frames written back to back (what
/// `rpicam-vid --codec mjpeg -o -` and `ffmpeg -f mjpeg -` write) or wrapped as parts of a
/// `multipart/x-mixed-replace` HTTP body (IP cameras). Anything outside a frame — part headers,
/// boundaries, garbage — is skipped and counted.
///
/// A frame is found by walking its marker segments by their lengths (so an EXIF thumbnail, a
/// whole JPEG inside APP1, cannot end the frame early) and its entropy-coded data up to the next
/// real marker, until EOI. Memory is bounded: a frame may hold at most `maxFrameBytes`, beyond
/// which it is dropped and reported, and the parser looks for the next frame.
public struct MJPEGStreamParser: Sendable {
    /// What feeding bytes produced, in stream order.
    public enum Event: Sendable, Equatable {
        case frame([UInt8])
        /// A frame grew past the limit: its bytes so far were dropped.
        case oversized(limit: Int)
        /// A frame broke off: a new frame started inside it, or its structure is not JPEG.
        case damaged(DamagedFrame)
    }

    public let maxFrameBytes: Int
    /// Bytes skipped between frames (multipart headers, boundaries, garbage).
    public private(set) var skippedBytes = 0
    /// The current frame from its SOI while in a frame; otherwise unsearched bytes.
    private var buffer: [UInt8] = []
    /// The next byte of `buffer` to look at.
    private var position = 0
    private var inFrame = false
    /// Inside a scan's entropy-coded data, where only a marker other than a restart ends it.
    private var inEntropyData = false

    /// A parser that drops frames longer than `maxFrameBytes`.
    public init(maxFrameBytes: Int) {
        self.maxFrameBytes = maxFrameBytes
    }

    /// Whether the stream ended inside a frame: bytes of a frame that never finished.
    public var partialFrameBytes: Int { inFrame ? buffer.count : 0 }

    /// Takes the next bytes of the stream and returns what they completed.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [Event] {
        buffer.append(contentsOf: bytes)
        var events: [Event] = []
        while step(&events) {}
        if inFrame && buffer.count > maxFrameBytes {
            events.append(.oversized(limit: maxFrameBytes))
            leaveFrame(at: buffer.count)
        }
        return events
    }

    /// One parsing step; false when more bytes are needed.
    private mutating func step(_ events: inout [Event]) -> Bool {
        guard inFrame else { return findStartOfImage() }
        if inEntropyData { return skipEntropyData() }
        guard position + 1 < buffer.count else { return false }
        guard buffer[position] == 0xFF else {
            events.append(.damaged(.noMarker(atByte: position)))
            leaveFrame(at: position)
            return true
        }
        let marker = buffer[position + 1]
        switch marker {
        case 0xFF:  // a fill byte before the marker
            position += 1
        case 0xD9:  // EOI
            let end = position + 2
            events.append(end <= maxFrameBytes ? .frame(Array(buffer[0..<end])) : .oversized(limit: maxFrameBytes))
            leaveFrame(at: end)
        case 0xD8:  // SOI: the frame in hand was cut off and a new one starts here
            events.append(.damaged(.cutOff(afterBytes: position)))
            leaveFrame(at: position)
        case 0x01, 0xD0...0xD7:  // TEM and restart markers carry no length
            position += 2
        default:
            guard position + 3 < buffer.count else { return false }
            let length = Int(buffer[position + 2]) << 8 | Int(buffer[position + 3])
            guard length >= 2 else {
                events.append(.damaged(.badSegmentLength(length)))
                leaveFrame(at: position + 2)
                return true
            }
            guard position + 2 + length <= buffer.count else { return false }
            position += 2 + length
            inEntropyData = marker == 0xDA  // SOS: its scan data follows the header
        }
        return true
    }

    /// Looks for FF D8 (start of image), dropping what comes before it.
    private mutating func findStartOfImage() -> Bool {
        var index = position
        while index + 1 < buffer.count {
            if buffer[index] == 0xFF && buffer[index + 1] == 0xD8 {
                skippedBytes += index
                buffer.removeSubrange(0..<index)
                position = 2
                inFrame = true
                inEntropyData = false
                return true
            }
            index += 1
        }
        // Keep a last FF: it may begin the marker the next bytes finish.
        let kept = buffer.last == 0xFF ? 1 : 0
        skippedBytes += buffer.count - kept
        buffer.removeSubrange(0..<(buffer.count - kept))
        position = 0
        return false
    }

    /// Scan data runs until FF followed by anything but 00 (a stuffed FF byte), a restart marker
    /// or another FF (fill).
    private mutating func skipEntropyData() -> Bool {
        var index = position
        while index + 1 < buffer.count {
            if buffer[index] == 0xFF {
                let next = buffer[index + 1]
                if next != 0x00 && !(0xD0...0xD7).contains(next) && next != 0xFF {
                    position = index
                    inEntropyData = false
                    return true
                }
            }
            index += 1
        }
        position = index
        return false
    }

    /// Ends the current frame: drops its bytes up to `end` and looks for the next one there.
    private mutating func leaveFrame(at end: Int) {
        buffer.removeSubrange(0..<min(end, buffer.count))
        position = 0
        inFrame = false
        inEntropyData = false
    }
}
