/// Exit codes shared by every subcommand.
enum ExitCode {
    static let success: Int32 = 0
    /// Some inputs failed (the others were still processed).
    static let partialFailure: Int32 = 1
    /// Bad usage; the model, labels, runtime or device could not be set up; stdout cannot be written.
    static let setupFailure: Int32 = 2
}
