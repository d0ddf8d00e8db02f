import PlantLeafCore
import PlantLeafJournal

/// What to do about a journal that cannot be opened or written.
extension JournalError: HasRemedy {
    func remedy(in catalogue: Catalogue) -> String? {
        switch self {
        case .libraryMissing: return catalogue["remedy.journal.library-missing"]
        case .libraryUnusable: return catalogue["remedy.journal.library-unusable"]
        case .notFound: return catalogue["remedy.journal.not-found"]
        case .notADatabase, .notAJournal: return catalogue["remedy.journal.move-away"]
        case .notARegularFile: return catalogue["remedy.journal.not-regular"]
        case .newerSchema: return catalogue["remedy.journal.newer-schema"]
        case .readOnly: return catalogue["remedy.journal.read-only"]
        // These say what failed; the disk or the file system is the user's to see to.
        case .diskFull, .busy, .failed: return nil
        }
    }
}
