import PlantLeafCore
import CV4L2
import Glibc
import PlantLeafSupport

/// One dequeued driver buffer. `bytes` points into the driver's mmap'd memory and is valid
/// until the buffer is queued again (the mailbox copies what it keeps into a `Frame`).
struct DequeuedBuffer {
    var index: Int
    var bytes: UnsafeRawBufferPointer
    var sequence: UInt32
    /// CLOCK_MONOTONIC nanoseconds of capture (the dequeue time when the driver's clock is another).
    var timestamp: UInt64
    var flaggedError: Bool
}

/// The mmap'd buffers of a streaming device: queues them all, waits for filled ones with poll,
/// and on `stop` (or deinit) turns streaming off, unmaps and frees them, whatever happened before.
final class CaptureStream {
    enum Event {
        case frame(DequeuedBuffer)
        /// The wake descriptor became readable (stop requested or a signal arrived).
        case woken
    }

    let device: V4L2Device
    private var buffers: [UnsafeMutableRawBufferPointer] = []
    private var streaming = false

    init(device: V4L2Device, bufferCount: Int = 4) throws(CameraError) {
        self.device = device
        var granted = UInt32(bufferCount)
        try device.check(pl_v4l2_request_buffers(device.descriptor, &granted), step: .requestBuffers(count: bufferCount))
        guard granted >= 2 else {
            stop()
            throw .setupFailed(path: device.path, step: .checkBuffers, reason: .tooFewBuffers(granted: Int(granted)))
        }
        for index in 0..<granted {
            var offset: UInt32 = 0, length: UInt32 = 0
            do {
                try device.check(pl_v4l2_query_buffer(device.descriptor, index, &offset, &length), step: .queryBuffer)
            } catch {
                stop()
                throw error
            }
            let address = mmap(nil, Int(length), PROT_READ | PROT_WRITE, MAP_SHARED, device.descriptor, off_t(offset))
            guard let address, address != MAP_FAILED else {
                let reason = SystemError(errno)
                stop()
                throw .setupFailed(path: device.path, step: .mapBuffer(index: Int(index)), reason: .system(reason))
            }
            buffers.append(UnsafeMutableRawBufferPointer(start: address, count: Int(length)))
        }
    }

    deinit { stop() }

    var bufferCount: Int { buffers.count }

    func start() throws(CameraError) {
        do {
            for index in buffers.indices {
                try device.check(pl_v4l2_queue_buffer(device.descriptor, UInt32(index)), step: .queueBuffer(index: index))
            }
            try device.check(pl_v4l2_stream(device.descriptor, 1), step: .startStream)
        } catch {
            stop()
            throw error
        }
        streaming = true
    }

    /// Waits until `deadline` (a `MonotonicClock` time) for a filled buffer or for
    /// `wakeDescriptor` to be readable. Returns nil when the deadline passes first.
    func next(until deadline: UInt64, wakeDescriptor: Int32) throws(CameraError) -> Event? {
        while true {
            var descriptors = [pollfd(fd: device.descriptor, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)]
            guard MonotonicClock.nanoseconds() < deadline else { return nil }
            let ready: Int32
            do {
                // The timeout is worked out again on each try: a signal must not stretch the wait.
                ready = try SystemCall.retryingInterrupts { poll(&descriptors, 2, MonotonicClock.pollTimeout(until: deadline)) }
            } catch {
                throw .streamFailed(path: device.path, reason: .poll(error))
            }
            if descriptors[1].revents != 0 { return .woken }
            if ready == 0 { continue }
            // POLLERR also lands here: the dequeue then tells what happened (ENODEV when unplugged).
            var frame = PLV4L2Frame()
            let status = pl_v4l2_dequeue_buffer(device.descriptor, &frame)
            switch status {
            case 0:
                let index = Int(frame.index)
                guard index < buffers.count else {
                    throw .streamFailed(path: device.path, reason: .unknownBuffer(index: index))
                }
                let used = min(Int(frame.bytes_used), buffers[index].count)
                return .frame(DequeuedBuffer(index: index, bytes: UnsafeRawBufferPointer(rebasing: buffers[index][0..<used]),
                                            sequence: frame.sequence,
                                            timestamp: frame.timestamp_monotonic != 0 ? frame.timestamp_ns : MonotonicClock.nanoseconds(),
                                            flaggedError: frame.flags & PL_V4L2_BUF_FLAG_ERROR != 0))
            case EAGAIN:
                continue
            case ENODEV:
                throw .unplugged(path: device.path)
            default:
                throw .streamFailed(path: device.path, reason: .dequeue(SystemError(status)))
            }
        }
    }

    func requeue(_ index: Int) throws(CameraError) {
        try device.check(pl_v4l2_queue_buffer(device.descriptor, UInt32(index)), step: .requeueBuffer(index: index))
    }

    /// Safe to call more than once and after any failure: each step undoes only what was done.
    func stop() {
        if streaming {
            _ = pl_v4l2_stream(device.descriptor, 0)
            streaming = false
        }
        for buffer in buffers { munmap(buffer.baseAddress, buffer.count) }
        if !buffers.isEmpty {
            var none: UInt32 = 0
            _ = pl_v4l2_request_buffers(device.descriptor, &none)
        }
        buffers = []
    }
}
