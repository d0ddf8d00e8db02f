import PlantLeafCore
import PlantLeafCamera
import PlantLeafReport

extension CameraOutput {
    /// JPEG quality of the frame sent to Home Assistant: the 224×224 model input at this quality
    /// is about 10-20 KB, small enough to publish with every reading.
    static let mqttFrameQuality = 80

    /// A camera result as the MQTT publisher sends it: `record` (the JSON line) to the result
    /// topic, and for Home Assistant the verdict, top classes and the model's input as JPEG (none
    /// when the session did not keep it or it cannot be encoded: the reading still goes).
    static func mqttReading(_ result: CameraResult, record: String) -> MQTTReading {
        let frame = result.modelInput.flatMap { try? JPEGEncoder.encode($0, quality: mqttFrameQuality) }
        return MQTTReading(record: record, verdict: result.verdict, top: result.top, time: result.time, frameJPEG: frame)
    }
}
