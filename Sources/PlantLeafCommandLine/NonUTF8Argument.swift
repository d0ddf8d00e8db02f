import PlantLeafCore
import PlantLeafSupport

/// An argument that is not UTF-8 where PlantLeaf takes it as text. Option values are held as Swift
/// strings, which turn each invalid byte into U+FFFD, so such a value would name another file
/// (`--log $'log\xff.jsonl'` would write `log\xef\xbf\xbd.jsonl`) or send another MQTT topic (MQTT
/// requires UTF-8): it is refused rather than rewritten. Only classify's image paths, which are
/// kept as bytes from end to end, may be any bytes.
struct NonUTF8Argument: Error, CustomStringConvertible {
    /// The option the value belongs to (`--log`), or nil for an argument of its own.
    let option: String?
    /// The argument's bytes as `PathName.escaped` shows them.
    let shown: String

    var description: String {
        let what = option.map { "\($0) value" } ?? "argument"
        return "\(what) '\(shown)' is not UTF-8: only classify's image paths may hold other bytes"
    }

    /// The first of `arguments` (the bytes the system passed, without the program and command
    /// names) that is not UTF-8, leaving out the indices in `exempt`; nil when there is none.
    static func first(in arguments: [[UInt8]], exempt: Set<Int> = []) -> NonUTF8Argument? {
        for (index, argument) in arguments.enumerated() where !exempt.contains(index) {
            guard String(validating: argument, as: UTF8.self) == nil else { continue }
            let shown = PathName(bytes: argument).escaped
            // --option=value, or a value following its option.
            if argument.starts(with: Array("--".utf8)), let equals = argument.firstIndex(of: UInt8(ascii: "=")),
               let option = String(validating: argument[..<equals], as: UTF8.self) {
                return NonUTF8Argument(option: option, shown: PathName(bytes: Array(argument[(equals + 1)...])).escaped)
            }
            if index > 0, let previous = String(validating: arguments[index - 1], as: UTF8.self),
               previous.hasPrefix("-"), previous.count > 1, !previous.contains("=") {
                return NonUTF8Argument(option: previous, shown: shown)
            }
            return NonUTF8Argument(option: nil, shown: shown)
        }
        return nil
    }
}
