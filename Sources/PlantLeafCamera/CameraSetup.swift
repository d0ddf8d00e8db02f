/// What the camera session settled on, reported before the first frame (and, with an
/// interval, again whenever a device that failed is back).
public enum CameraSetup: Sendable {
    case device(DeviceSetup)
    /// A motion-JPEG stream from a file or pipe.
    case stream(name: String, maxFrameBytes: Int)
}
