import PlantLeafCore

/// What a camera session reads, how it crops, and when it stops.
public struct CameraOptions: Sendable {
    public var devicePath: String
    public var request: CaptureRequest
    public var crop: CropMode
    /// Stop after this many classified frames.
    public var frameLimit: Int?
    /// Stop after this many seconds of streaming.
    public var duration: Double?
    /// Seconds without a frame before giving up.
    public var frameTimeout: Double
    /// Write every classified frame (the model's input) here as JPEG.
    public var saveFramesDirectory: String?
    /// Read a motion-JPEG stream from this file or pipe ("-": standard input) instead of a
    /// V4L2 device.
    public var inputPath: String?
    /// Frames a stream input may carry: far above any camera's JPEG, small enough to hold.
    public var maxStreamFrameBytes = 16 << 20
    /// Classify one fresh frame every this many seconds instead of continuously. A device is
    /// opened for each and closed between them, and one that fails is waited for.
    public var interval: Double?
    /// With an interval: frames thrown away after the device starts streaming, while the
    /// camera's automatic exposure settles.
    public var settleFrames = 3
    /// With an interval: the pause before retrying a device that failed, doubled after each
    /// failed attempt up to the last.
    public var retryPauses = (first: 1.0, last: 60.0)

    /// Hand each result the model's input image (`CameraResult.modelInput`), for a preview. Off
    /// by default: a caller that keeps its results would otherwise keep 150 KB of pixels with each.
    public var keepModelInput: Bool

    /// Options for a session; each parameter is the property of the same name.
    public init(devicePath: String = "/dev/video0", request: CaptureRequest = CaptureRequest(), crop: CropMode = .center,
                frameLimit: Int? = nil, duration: Double? = nil, frameTimeout: Double = 5,
                saveFramesDirectory: String? = nil, inputPath: String? = nil, interval: Double? = nil, keepModelInput: Bool = false) {
        self.devicePath = devicePath
        self.request = request
        self.crop = crop
        self.frameLimit = frameLimit
        self.duration = duration
        self.frameTimeout = frameTimeout
        self.saveFramesDirectory = saveFramesDirectory
        self.inputPath = inputPath
        self.interval = interval
        self.keepModelInput = keepModelInput
    }
}
