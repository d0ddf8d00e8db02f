import Glibc
import PlantLeafCore
import PlantLeafLessons

/// --lessons FILE, as teach, classify, camera and serve take it, and how those commands load the
/// lessons it names.
enum LessonsOptions {
    static let lessons = Declare.text("--lessons", placeholder: "FILE", help: .lines([
        "the lessons plantleaf teach keeps (default: lessons.sqlite beside the journal,",
        "$XDG_STATE_HOME/plantleaf, else ~/.local/state/plantleaf); a photo close to them is",
        "named by them"]))

    /// The file `option` names, else the default one; nil without HOME or XDG_STATE_HOME.
    static func path(_ option: String?) -> String? {
        if let option { return option }
        var environment: [String: String] = [:]
        for name in ["XDG_STATE_HOME", "HOME"] { if let value = getenv(name) { environment[name] = String(cString: value) } }
        return LessonsFile.defaultPath(environment: environment)
    }

    /// The classifier options with the lessons at `path` (given or default) folded in: their
    /// features read from every invoke. No file, no lessons: the options as they were.
    /// `mayBeNew`: the file may not be there yet (serve makes it with the first correction
    /// taught on its page); otherwise a --lessons FILE that is not there is an error.
    /// - Throws: `LessonsError` for a file that is there but cannot be used.
    static func applying(_ option: String?, to options: Classifier.Options, mayBeNew: Bool = false) throws(LessonsError) -> Classifier.Options {
        guard let path = path(option) else { return options }
        if let option, !mayBeNew, access(option, F_OK) != 0 { throw .notFound(path: option) }
        guard let taught = try LessonsFile.loadIfPresent(path: path) else { return options }
        var options = options
        options.readsFeatures = true
        options.lessons = taught
        return options
    }
}
