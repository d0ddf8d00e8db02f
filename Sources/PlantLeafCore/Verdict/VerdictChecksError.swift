import PlantLeafSupport

/// Why a list of verdict checks could not be read.
public enum VerdictChecksError: PlantLeafError {
    /// A name that is no check (an empty one when the list is empty or has ",,").
    case unknownCheck(String)
    /// "all" or "none" among other names.
    case standsAlone(String)

    public var message: String {
        let choices = VerdictChecks.names.map(\.name).joined(separator: ", ")
        switch self {
        case .unknownCheck(let name) where name.isEmpty:
            return "empty check name: give a comma list of \(choices), or all or none"
        case .unknownCheck(let name):
            return "unknown check '\(name)': the checks are \(choices), or all or none"
        case .standsAlone(let name):
            return "'\(name)' stands alone, not in a list with other checks"
        }
    }
}
