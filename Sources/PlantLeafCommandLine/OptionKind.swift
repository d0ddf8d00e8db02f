/// Whether an option stands alone or takes the next argument (or what follows `=`) as its value.
public enum OptionKind: Sendable, Equatable {
    case flag
    /// `placeholder` names the value in the help text: FILE, N, LIST.
    case valued(placeholder: String)
}
