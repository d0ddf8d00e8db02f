import PlantLeafCore

/// `plantleaf calibrate`'s arguments, parsed and range-checked without doing anything.
public struct CalibrateOptions: OptionGroup, Equatable {
    public var help = false
    /// The folders and files of the grower's leaf photos.
    public var photoPaths: [String] = []
    /// --output FILE; nil: the user's data folder (`ProjectPaths.userReferencePath`).
    @Bound(Declare.text("--output", placeholder: "FILE",
                        help: .lines(["write the reference to FILE instead of $XDG_DATA_HOME/plantleaf/leaf-reference.txt",
                                      "(else ~/.local/share/plantleaf/), where classify, camera and serve find it"])))
    public var outputPath: String?
    @Bound(SharedOptions.threads) public var threads: Int

    /// No options: the user's data folder, one thread.
    public init() {}

    /// Every option calibrate takes, in the order its help lists them.
    public static let optionTable: [OptionSpec] = CalibrateOptions.options + [SharedOptions.help.spec]

    /// calibrate's arguments.
    /// - Throws: `UsageError` for an unknown option or no photo folder.
    public static func parse(_ arguments: [String]) throws(UsageError) -> CalibrateOptions {
        let parsed = try Arguments(arguments, options: optionTable)
        guard !parsed.has(SharedOptions.help) else {
            var options = CalibrateOptions()
            options.help = true
            return options
        }
        guard !parsed.positionals.isEmpty else { throw UsageError("give a folder of your leaf photos (at least \(LeafReference.minimumPhotos))") }
        guard !parsed.positionals.contains(FileReader.standardInput) else {
            throw UsageError("a reference is made from many photos: give a folder, not standard input")
        }
        var options = try read(parsed)
        options.photoPaths = parsed.positionals
        return options
    }
}
