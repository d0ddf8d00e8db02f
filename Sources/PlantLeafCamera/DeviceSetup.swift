import PlantLeafCore

/// The device, format and buffers a V4L2 capture uses.
public struct DeviceSetup: Sendable {
    public var device: DeviceDescription
    public var plan: CapturePlan
    public var stream: StreamFormat
    public var bufferCount: Int

    package init(device: DeviceDescription, plan: CapturePlan, stream: StreamFormat, bufferCount: Int) {
        (self.device, self.plan, self.stream, self.bufferCount) = (device, plan, stream, bufferCount)
    }
}
