import PlantLeafCore

/// `plantleaf calibrate`'s arguments, parsed and range-checked without doing anything.
public struct CalibrateOptions: Equatable, Sendable {
    public var help = false
    /// The folders and files of the grower's leaf photos.
    public var photoPaths: [String] = []
    /// --output FILE; nil: the user's data folder (`ProjectPaths.userReferencePath`).
    public var outputPath: String?
    public var threads = SharedOptions.threads.defaultValue

    /// The options only this subcommand takes, each declared once.
    enum Declared {
        static let output = Declare.text("--output", placeholder: "FILE",
                                         help: .lines(["write the reference to FILE instead of $XDG_DATA_HOME/plantleaf/leaf-reference.txt",
                                                       "(else ~/.local/share/plantleaf/), where classify, camera and serve find it"]))
    }

    /// Every option calibrate takes, in the order its help lists them.
    public static let optionTable: [OptionSpec] = [Declared.output.spec, SharedOptions.threads.spec, SharedOptions.help.spec]

    /// calibrate's arguments.
    /// - Throws: `UsageError` for an unknown option or no photo folder.
    public static func parse(_ arguments: [String]) throws(UsageError) -> CalibrateOptions {
        let parsed = try Arguments(arguments, options: optionTable)
        var options = CalibrateOptions()
        if parsed.has(SharedOptions.help) {
            options.help = true
            return options
        }
        guard !parsed.positionals.isEmpty else { throw UsageError("give a folder of your leaf photos (at least \(LeafReference.minimumPhotos))") }
        guard !parsed.positionals.contains(FileReader.standardInput) else {
            throw UsageError("a reference is made from many photos: give a folder, not standard input")
        }
        options.photoPaths = parsed.positionals
        options.outputPath = try parsed.value(Declared.output)
        options.threads = try parsed.value(SharedOptions.threads)
        return options
    }
}
