import PlantLeafCore

/// Something a camera run reports while it goes on, as `CameraSession.run` hands it over. The
/// values say what happened; front ends word them (and may add what to do about it).
public enum CameraNotice: Sendable, Equatable {
    /// Why a stream frame was dropped.
    public enum Drop: Sendable, Equatable {
        /// The stream ended part-way through a frame of this many bytes.
        case endedInsideFrame(bytes: Int)
        /// The frame grew past the size limit (in bytes).
        case oversized(limit: Int)
        /// The frame broke off or was not a JPEG.
        case damaged(DamagedFrame)
    }

    /// A stream frame was dropped.
    case frameDropped(source: String, Drop)
    /// More notices came between two readings than are kept; this many are not shown.
    case noticesNotShown(count: Int)
    /// A device read at intervals failed; it is tried again after `pause` seconds.
    case retrying(CameraError, pause: Double)
    /// A device that failed is back.
    case cameraBack(device: String, failedAttempts: Int)
}
