import Foundation

// Writes the Swift file the EmbedFiles plugin adds to a target: `EmbeddedFiles.text`, each file's
// text by its name under Embedded/ ("Locales/en.json"). Run by the build, on the build's host.
//
// usage: EmbedFilesTool OUTPUT NAME=PATH...

/// `text` as a Swift string literal: quotes, backslashes and every character outside printable
/// ASCII written as escapes, so no content can end the literal or change what it means.
func literal(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case " "..."~": result.unicodeScalars.append(scalar)
        default: result += "\\u{" + String(scalar.value, radix: 16) + "}"
        }
    }
    return result + "\""
}

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("EmbedFilesTool: usage: EmbedFilesTool OUTPUT NAME=PATH...\n".utf8))
    exit(2)
}
var entries: [String] = []
for argument in arguments.dropFirst() {
    guard let equals = argument.firstIndex(of: "=") else {
        FileHandle.standardError.write(Data("EmbedFilesTool: '\(argument)' is not NAME=PATH\n".utf8))
        exit(2)
    }
    let path = String(argument[argument.index(after: equals)...])
    guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
        FileHandle.standardError.write(Data("EmbedFilesTool: cannot read \(path) as UTF-8 text\n".utf8))
        exit(1)
    }
    entries.append("        \(literal(String(argument[..<equals]))): \(literal(text)),")
}
let source = """
    // Written by the EmbedFiles plugin from the files under Embedded/: edit those, not this.
    enum EmbeddedFiles {
        /// Each file's text, by its path under Embedded/.
        static let text: [String: String] = [
    \(entries.isEmpty ? "        :" : entries.joined(separator: "\n"))
        ]
    }

    """
do {
    try Data(source.utf8).write(to: URL(fileURLWithPath: output))
} catch {
    FileHandle.standardError.write(Data("EmbedFilesTool: cannot write \(output): \(error)\n".utf8))
    exit(1)
}
