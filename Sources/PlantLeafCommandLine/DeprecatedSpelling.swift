/// Option spellings renamed in 0.1.0 (--format is the output format everywhere; the camera's
/// pixel format is --pixel-format): still accepted, with a notice, until the release that drops them.
enum DeprecatedSpelling {
    /// The release without the old spellings (docs/command-line.md says the same).
    static let removedIn = "0.2.0"

    /// The one line on stderr for an old spelling: what to write instead, and when the old one goes.
    static func notice(_ old: String, replacement: String) -> String {
        "warning: \(old) is deprecated and stops working in plantleaf \(removedIn): use \(replacement)"
    }
}
