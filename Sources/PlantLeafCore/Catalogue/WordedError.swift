import PlantLeafSupport

/// An error whose words for people are the catalogue's, so a command prints it in the reader's
/// language. `message` and `details` (and so `description`, the JSON and CSV "error" fields, the
/// logs) are the English texts: machines and operators read one language.
///
/// What a value is stays as it is in every language: paths, numbers, option and variable
/// names, bytes in hex, and the words the system or a decoder gave for its failure (strerror's,
/// libjpeg's, the model file's check), which PlantLeaf passes on rather than writes.
public protocol WordedError: PlantLeafError {
    /// What failed and where, in `catalogue`'s language.
    func message(in catalogue: Catalogue) -> String
    /// More about why, in `catalogue`'s language; nil when the message says it all.
    func details(in catalogue: Catalogue) -> String?
}

extension WordedError {
    public var message: String { message(in: .english) }
    public var details: String? { details(in: .english) }
    public func details(in catalogue: Catalogue) -> String? { nil }

    /// "message: details", or the message alone, in `catalogue`'s language.
    public func description(in catalogue: Catalogue) -> String {
        details(in: catalogue).map { message(in: catalogue) + ": " + $0 } ?? message(in: catalogue)
    }
}
