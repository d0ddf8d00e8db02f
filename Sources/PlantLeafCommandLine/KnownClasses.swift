import PlantLeafCore
import PlantLeafLessons
import PlantLeafSupport

/// What plantleaf knows, for the help texts: the crops of the model's labels, and the classes the
/// grower taught in the default lessons file.
enum KnownClasses {
    /// The crops of `labels` ("Apple___Black_rot" → "Apple"), each once, in label order.
    static func crops(_ labels: Labels) -> [String] {
        var crops: [String] = []
        for label in labels.names {
            let parts = label.split(separator: "___", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            let crop = Labels.displayName(String(parts[0]))
            if !crops.contains(crop) { crops.append(crop) }
        }
        return crops
    }

    /// The help's closing section: the default model's crops, and what is taught. Empty when the
    /// labels cannot be read (the command itself will say why when run).
    static func helpSection() -> String {
        var lines: [String] = []
        if let labels = try? Labels.load(path: ProjectPaths.defaultModelAndLabels().labelsPath) {
            let crops = crops(labels)
            lines.append("KNOWN CROPS: the model knows \(crops.count): " + crops.joined(separator: "; ") + ".")
        }
        if let path = LessonsOptions.path(nil), let taught = try? LessonsFile.loadIfPresent(path: path) {
            lines.append("TAUGHT (\(path)): " + taught.classes.map { TerminalText.neutralised($0.name) }.joined(separator: ", ") + ".")
        } else {
            lines.append("Other crops: teach them with plantleaf teach add --class NAME PHOTO...")
        }
        return wrapped(lines.joined(separator: "\n"))
    }

    /// Lines wrapped at 100 columns on spaces, continuation lines indented two.
    static func wrapped(_ text: String) -> String {
        text.split(separator: "\n").map { line in
            var result: [String] = [], current = ""
            for word in line.split(separator: " ") {
                if !current.isEmpty && current.count + 1 + word.count > 100 {
                    result.append(current)
                    current = "  " + word
                } else {
                    current += (current.isEmpty ? "" : " ") + word
                }
            }
            result.append(current)
            return result.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
