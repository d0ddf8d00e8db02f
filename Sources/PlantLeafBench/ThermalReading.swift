/// One /sys/class/thermal zone's temperature.
public struct ThermalReading: Sendable, Equatable {
    public var zone: String
    public var type: String
    public var celsius: Double
}
