import PlantLeafCore
import PlantLeafCamera

extension CameraOutput {
    /// JPEG quality of the frame sent to Home Assistant and shown by serve's pages: the 224×224
    /// model input at this quality is about 10-20 KB, small enough to send with every reading.
    static let frameJPEGQuality = 80
}
