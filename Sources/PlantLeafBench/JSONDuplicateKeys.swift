import FoundationEssentials

/// Finds a key that one object of a JSON text holds twice. JSONDecoder keeps one of the two
/// without a word, so a report could show a reader one `machine` and compare another.
enum JSONDuplicateKeys {
    /// The first repeated key as a path ("results[0].threads"), or nil when every object's keys
    /// are distinct. `bytes` must be JSON that JSONDecoder accepted, in UTF-8: the scan then only
    /// follows strings, brackets and commas, in one pass, keeping the keys of the objects still
    /// open (never more than the text itself holds; the path is spelled only when it is found).
    static func first(in bytes: [UInt8]) -> String? {
        var open: [Container] = []
        // The next string is a key: right after `{`, or after a `,` in an object.
        var expectsKey = false
        var position = 0
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                var end = position + 1
                // A backslash escapes the byte after it, so `\"` does not end the string.
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
                if expectsKey, let object = open.indices.last, end < bytes.count {
                    let key = keyText(bytes[position...end])
                    if open[object].keys?.insert(key).inserted == false {
                        let path = (open.dropLast().map(\.segment) + ["." + key]).joined()
                        return path.hasPrefix(".") ? String(path.dropFirst()) : path
                    }
                    open[object].key = key
                    expectsKey = false
                }
                position = end
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[position] == UInt8(ascii: "{")
                open.append(Container(keys: isObject ? [] : nil))
                expectsKey = isObject
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = open.popLast()
                expectsKey = false
            case UInt8(ascii: ","):
                guard let last = open.indices.last else { break }
                if open[last].keys != nil { expectsKey = true } else { open[last].index += 1 }
            default:
                break
            }
            position += 1
        }
        return nil
    }

    /// An object or array not yet closed.
    private struct Container {
        /// An object's keys so far; nil for an array.
        var keys: Set<String>?
        /// The object's latest key, the array's current element: where the scan is inside it.
        var key = ""
        var index = 0

        /// Its part of a path: ".stages" or "[0]".
        var segment: String { keys == nil ? "[\(index)]" : "." + key }
    }

    /// A quoted key as text: escapes (`\u0061` is `a`) decoded, so keys that differ only in
    /// spelling count as the same key, as they do for the decoder.
    private static func keyText(_ quoted: ArraySlice<UInt8>) -> String {
        let inner = quoted.dropFirst().dropLast()
        guard inner.contains(UInt8(ascii: "\\")) else { return String(decoding: inner, as: UTF8.self) }
        // The text is JSON the decoder accepted, so its own reading of the key succeeds.
        return (try? JSONDecoder().decode(String.self, from: Data(quoted))) ?? String(decoding: inner, as: UTF8.self)
    }
}
