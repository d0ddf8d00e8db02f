/// Where an option is described in its subcommand's help text.
public enum OptionHelp: Sendable, Equatable {
    /// Its own entry: the first line beside the option's names, the rest indented under it.
    case lines([String])
    /// Named at the start of the next option's entry, joined to it by `separator`, for options
    /// that only make sense together ("--mean M --std S").
    case sharesEntryWithNext(separator: String)
    /// Described in the lines of the option named, whose value it qualifies (--iterations N in
    /// --bench-frames's).
    case mentionedIn(String)
    /// Not listed: an old spelling still accepted for this release, with a notice on stderr that
    /// names `replacement`.
    case deprecated(replacement: String)
}
