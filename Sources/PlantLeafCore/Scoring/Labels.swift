import PlantLeafSupport

/// Class names in the model's output order, one a line. Blank lines and lines starting with '#'
/// are skipped, so a label file can say where its names come from.
public struct Labels: Sendable, Equatable {
    public let names: [String]

    /// Labels with these names, in output order.
    public init(names: [String]) {
        self.names = names
    }

    /// The names in a label file's text: one a line, trimmed; blank and '#' lines skipped.
    public init(parsing text: String) {
        names = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { $0.trimmingWhitespace() }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// Reads a label file.
    /// - Throws: `LabelError.unreadable`, `.notText` (not UTF-8) or `.empty` (no names).
    public static func load(path: String) throws(LabelError) -> Labels {
        let bytes: [UInt8]
        do {
            bytes = try FileReader.readAll(path: path)
        } catch {
            throw .unreadable(path: path, reason: error)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .notText(path: path) }
        let labels = Labels(parsing: text)
        if labels.names.isEmpty { throw .empty(path: path) }
        return labels
    }

    /// The label file must name exactly one class per model output.
    ///
    /// - Throws: `LabelError.countMismatch` when the counts differ.
    public func check(againstClassCount classes: Int, path: String) throws(LabelError) {
        if names.count != classes { throw .countMismatch(path: path, labels: names.count, classes: classes) }
    }

    public var count: Int { names.count }

    /// The name of output `index`.
    public subscript(index: Int) -> String { names[index] }

    /// Whether a reading of `verdict` whose best class is `label` is a problem: a diagnosis of a
    /// class that is not a healthy one. PlantVillage names its healthy classes "<crop>___healthy".
    public static func isProblem(verdict: Verdict, label: String?) -> Bool {
        guard verdict == .diagnosis, let label else { return false }
        return !label.lowercased().hasSuffix("healthy")
    }

    /// A name for people: PlantVillage's "Tomato___Early_blight" reads "Tomato — Early blight".
    /// Other labels only lose their underscores. Control and bidirectional formatting
    /// characters are written as \xHH (`TerminalText`): the name goes to terminals.
    public static func displayName(_ label: String) -> String {
        let parts = label.split(separator: "___", omittingEmptySubsequences: false).map { part in
            part.replacingUnderscores().split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        return TerminalText.neutralised(parts.joined(separator: " — "))
    }
}

extension StringProtocol {
    func replacingUnderscores() -> String {
        String(map { $0 == "_" ? " " : $0 })
    }
}
