/// What every PlantLeafKit error says, as swift-png's per-stage errors do: a `message`, one line
/// naming what failed and where (the file, device or broker), and `details` when there is an
/// underlying cause worth its own words (the system's reason, a C library's message, the limit
/// that was hit). It never says how the program using the library was started: a front end adds
/// what to type (PlantLeafCommandLine adds the flag, variable or make target).
public protocol PlantLeafError: Error, Equatable, CustomStringConvertible {
    var message: String { get }
    var details: String? { get }
}

extension PlantLeafError {
    public var details: String? { nil }

    /// "message: details", or the message alone.
    public var description: String { details.map { "\(message): \($0)" } ?? message }
}
