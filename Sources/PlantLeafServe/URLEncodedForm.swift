import PlantLeafCore
import PlantLeafSupport

/// The one field the sign-in needs from an application/x-www-form-urlencoded body, found in a
/// single pass over the bytes: each pair's name is compared as it is met, and only the value
/// asked for is decoded, so the time taken grows with the body's length and nothing else.
enum URLEncodedForm {
    /// The first value named `name` in `body`, with `+` and %XX decoded; nil when there is none.
    static func value(of name: String, in body: [UInt8]) -> [UInt8]? {
        let wanted = Array(name.utf8)
        var start = 0
        while start <= body.count {
            let end = body[start...].firstIndex(of: UInt8(ascii: "&")) ?? body.count
            let pair = body[start..<end]
            let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? end
            if decoded(pair[start..<equals]) == wanted {
                return decoded(pair[min(equals + 1, end)..<end])
            }
            start = end + 1
        }
        return nil
    }

    /// `text` with `+` as a space and %XX as its byte; a `%` not followed by two hex digits is kept as it is.
    private static func decoded(_ text: ArraySlice<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index + 2 < text.endIndex,
                      let high = HexDigit.value(text[index + 1]), let low = HexDigit.value(text[index + 2]) {
                bytes.append(high << 4 | low)
                index += 2
            } else {
                bytes.append(byte)
            }
            index += 1
        }
        return bytes
    }
}
