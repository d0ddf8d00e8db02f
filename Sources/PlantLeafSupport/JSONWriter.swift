/// Builds JSON text with keys in the order they are written (JSONEncoder would sort or shuffle
/// them), for the one-object-per-line output formats.
package struct JSONObject {
    private var members: [String] = []

    /// An empty object.
    package init() {}

    /// Adds a member; members keep the order they were added in.
    package mutating func add(_ key: String, _ value: String) { append(key, JSONObject.quote(value)) }
    package mutating func add(_ key: String, _ value: Int) { append(key, String(value)) }
    package mutating func add(_ key: String, _ value: Bool) { append(key, value ? "true" : "false") }
    /// A number with at most `decimals` decimals (null when not finite).
    package mutating func add(_ key: String, _ value: Double, decimals: Int = 6) { append(key, JSONObject.number(value, decimals: decimals)) }
    package mutating func add(_ key: String, _ value: JSONObject) { append(key, value.text) }
    package mutating func add(_ key: String, objects: [JSONObject]) {
        append(key, "[" + objects.map(\.text).joined(separator: ", ") + "]")
    }
    /// Adds text that is already JSON (an array or a nested value built elsewhere).
    package mutating func add(_ key: String, json: String) { append(key, json) }
    package mutating func addNull(_ key: String) { append(key, "null") }

    package var text: String { "{" + members.joined(separator: ", ") + "}" }

    private mutating func append(_ key: String, _ value: String) {
        members.append(JSONObject.quote(key) + ": " + value)
    }

    /// A number with at most `decimals` decimals (`DecimalText.shortest`); NaN and infinities,
    /// which JSON cannot hold, become null.
    package static func number(_ value: Double, decimals: Int) -> String {
        DecimalText.shortest(value, decimals: decimals) ?? "null"
    }

    /// `text` as a JSON string, quoted, with quotes, backslashes and control characters escaped.
    package static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            // DEL and the C1 controls are valid in JSON but would reach a terminal showing it.
            case let control where control.value < 0x20 || (0x7F...0x9F).contains(control.value):
                let hex = String(control.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
