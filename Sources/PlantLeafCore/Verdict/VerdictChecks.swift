/// Which of the verdict's checks run (docs/verdicts.md), as `--checks picture,vegetation,score`
/// would name them. A check that does not run cannot give its verdict: with none, every result
/// is a `diagnosis`, as before verdicts existed.
public struct VerdictChecks: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Luminance level and spread, a drawn picture's flat areas, and for a camera a frame
    /// repeating the previous ones: `no-picture`.
    public static let picture = VerdictChecks(rawValue: 1 << 0)
    /// Share of green-tissue pixels: `no-leaf`.
    public static let vegetation = VerdictChecks(rawValue: 1 << 1)
    /// The top class's score against the minimum: `uncertain`.
    public static let score = VerdictChecks(rawValue: 1 << 2)
    /// The picture mirrored left to right must get the same class, above the minimum score:
    /// `uncertain`. Costs a second inference per picture.
    public static let mirror = VerdictChecks(rawValue: 1 << 3)
    /// A second, generalist model's view of the same picture against its view of leaf photos
    /// (`SecondOpinion`): `no-leaf` far from them, `uncertain` in between. Costs its model's
    /// inference per picture.
    public static let generalist = VerdictChecks(rawValue: 1 << 4)

    public static let all: VerdictChecks = [.picture, .vegetation, .generalist, .score, .mirror]

    /// For `classify`: every check but the mirror. The generalist is the one that holds on
    /// photos nobody tuned the checks on (birds among foliage, flowers, green patterns), so it
    /// runs though it costs an inference; the mirror adds another (about 4 ms an image here)
    /// and catches nothing the others miss on the samples.
    public static let classifyDefault: VerdictChecks = [.picture, .vegetation, .generalist, .score]

    /// For `camera`: all checks. A camera delivers a frame every 33 ms or more, so the second
    /// inference fits, and a live view is where unstable answers occur (a leaf half in view,
    /// motion); with it all 28 non-leaf photos were caught.
    public static let cameraDefault: VerdictChecks = .all

    /// The names `init(parsing:)` reads, in the order `description` writes them.
    public static let names: [(name: String, checks: VerdictChecks)] =
        [("picture", .picture), ("vegetation", .vegetation), ("generalist", .generalist), ("score", .score), ("mirror", .mirror)]

    /// Reads a comma list of check names ("picture,vegetation,score"), or "all", or "none".
    ///
    /// - Throws: `VerdictChecksError` for an empty list or item, an unknown name, or "all" or
    ///   "none" beside other names (which would leave the meaning open).
    public init(parsing text: String) throws(VerdictChecksError) {
        switch text {
        case "all": self = .all; return
        case "none": self = []; return
        default: break
        }
        var checks: VerdictChecks = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            guard let entry = Self.names.first(where: { $0.name == item }) else {
                if item == "all" || item == "none" { throw VerdictChecksError.standsAlone(item) }
                throw VerdictChecksError.unknownCheck(item)
            }
            checks.insert(entry.checks)
        }
        self = checks
    }

    /// "all", "none", or the names of the checks that run, comma-separated: what `init(parsing:)` reads.
    public var description: String {
        if self == .all { return "all" }
        if isEmpty { return "none" }
        return Self.names.filter { contains($0.checks) }.map(\.name).joined(separator: ",")
    }
}
