import PlantLeafCore

/// What to type about a library error. PlantLeafKit's errors say what failed and where; this adds
/// the flag, variable, make target or command that fixes it, as text to append to the error's own.
/// An error with catalogue words (`WordedError`) is said with its remedy in the catalogue's
/// language; the others' lines are English, whole. Each module's errors say their remedy
/// (`HasRemedy`) in a file of their own beside the rest of that module's command-line code.
enum Remedy {
    /// The one line a command prints when the generalist check cannot run: what is wrong with
    /// which file, that every result says the check was skipped, and what to do.
    static func skippedCheckLine(_ problem: SecondOpinionError, in catalogue: Catalogue = .english) -> String {
        let remedy: String
        switch problem {
        case .model(.invalidInputSide(_, let allowed)):
            remedy = catalogue.text("remedy.skipped-check.input-side", ["variable": ProjectPaths.generalistSideVariable,
                                                                        "lowest": String(allowed.lowerBound), "highest": String(allowed.upperBound)])
        case .model:
            remedy = catalogue["remedy.skipped-check.model"]
        case .reference(.wrongGeneralist):
            remedy = catalogue["remedy.skipped-check.remake-for-generalist"]
        case .reference(.wrongLength), .reference(.wrongInputSide), .reference(.damaged), .reference(.notAReference):
            remedy = catalogue["remedy.skipped-check.remake-reference"]
        case .reference, .notConfigured:
            remedy = catalogue["remedy.skipped-check.make-reference"]
        }
        return catalogue.text("remedy.skipped-check", ["problem": problem.description(in: catalogue), "remedy": remedy])
    }

    /// The error's line with its remedy, if it has one: in `catalogue`'s language when the error
    /// has catalogue words, else in English.
    static func line(_ error: any Error, in catalogue: Catalogue = .english) -> String {
        guard let worded = error as? any WordedError else { return "\(error)" + (suffix(for: error, in: .english) ?? "") }
        return worded.description(in: catalogue) + (suffix(for: error, in: catalogue) ?? "")
    }

    /// The text to append to `error`'s own, when there is something to type or do about it.
    static func suffix(for error: any Error, in catalogue: Catalogue = .english) -> String? {
        (error as? any HasRemedy)?.remedy(in: catalogue)
    }
}

/// An error the command line knows a remedy for: the flag, variable, make target or command
/// that fixes it, as text to append to the error's own line.
protocol HasRemedy: Error {
    /// The remedy in `catalogue`'s language (English for the errors whose lines are English);
    /// nil when the error's own words already say what to change.
    func remedy(in catalogue: Catalogue) -> String?
}

extension RuntimeError: HasRemedy {
    func remedy(in catalogue: Catalogue) -> String? {
        switch self {
        case .libraryNotFound: return catalogue.text("remedy.library-not-found", ["variable": ProjectPaths.liteRtVariable])
        case .libraryUnusable: return catalogue["remedy.library-unusable"]
        case .modelNotFound: return catalogue["remedy.model-not-found"]
        case .damagedModel: return catalogue["remedy.damaged-model"]
        // Only the variable can name the library without a folder: plantleaf's own search uses paths.
        case .libraryPathNotAPath: return catalogue.text("remedy.library-path-variable", ["variable": ProjectPaths.liteRtVariable])
        case .modelUnreadable, .notAModel, .unsupportedModel, .callFailed, .invalidThreadCount, .invalidInputSide, .threadsUnavailable: return nil
        }
    }
}

extension LabelError: HasRemedy {
    func remedy(in catalogue: Catalogue) -> String? {
        switch self {
        case .unreadable: return catalogue["remedy.labels-unreadable"]
        case .countMismatch: return catalogue["remedy.labels-count-mismatch"]
        case .notText, .empty: return nil
        }
    }
}

extension ClassifierSetupError: HasRemedy {
    func remedy(in catalogue: Catalogue) -> String? {
        switch self {
        case .runtime(let error): return error.remedy(in: catalogue)
        case .labels(let error): return error.remedy(in: catalogue)
        }
    }
}
