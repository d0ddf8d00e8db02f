/// What the benchmark records about the machine. Text the system does not provide is "unknown".
public struct MachineInfo: Sendable, Equatable {
    public static let unknown = "unknown"

    public var architecture: String
    public var kernel: String
    /// x86: the `model name`; ARM: the cores named from `CPU implementer`/`CPU part`, e.g. "4x Cortex-A76".
    public var cpuModel: String
    /// ARM's `Hardware` line in /proc/cpuinfo (the SoC on older kernels), else "unknown".
    public var cpuHardware: String
    /// The device-tree `model` ("Raspberry Pi 5 Model B Rev 1.0"), cpuinfo's `Model`, or the DMI product.
    public var board: String
    /// The host name (uname's nodename): tells apart reports of boards that do not name themselves.
    public var host: String
    public var cores: Int?
    public var frequencies: [CoreFrequency]
}
