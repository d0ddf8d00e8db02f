/// Standard base64 (RFC 4648, with padding), for the sign-in page's style hash and icon address.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")

    package static func encode(_ bytes: [UInt8]) -> String {
        var text = ""
        for start in stride(from: 0, to: bytes.count, by: 3) {
            let group = bytes[start..<min(start + 3, bytes.count)]
            let value = group.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << UInt32(16 - 8 * $1.offset) }
            for index in 0..<4 {
                text.append(index <= group.count ? alphabet[Int(value >> UInt32(18 - 6 * index) & 0x3F)] : "=")
            }
        }
        return text
    }
}
