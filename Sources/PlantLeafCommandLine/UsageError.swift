/// A command-line mistake: reported with the command's name and exit code 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var description: String
    /// A mistake described in one line, without the command's name.
    public init(_ description: String) { self.description = description }
}
