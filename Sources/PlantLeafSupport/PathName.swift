import Glibc

/// A file path as the system has it: bytes, not necessarily UTF-8. A Swift String would turn
/// each invalid byte into U+FFFD, so two different names could become one and neither could be
/// opened again; this keeps the bytes for the system calls and escapes them only for showing.
public struct PathName: Hashable, Sendable {
    public var bytes: [UInt8]

    /// A name made of exactly these bytes.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// The name `text` spells in UTF-8.
    public init(_ text: String) { bytes = Array(text.utf8) }

    /// The name as text when it is UTF-8, as nearly every name is; nil when it is not.
    public var string: String? { String(validating: bytes, as: UTF8.self) }

    /// The path with `component` added after a slash.
    public func appending(_ component: [UInt8]) -> PathName {
        PathName(bytes: bytes.last == UInt8(ascii: "/") ? bytes + component : bytes + [UInt8(ascii: "/")] + component)
    }

    /// Calls `body` with the path as a NUL-terminated C string, for system calls.
    public func withCString<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }

    /// The path for people and for line-based output: every byte that is not part of a
    /// printable UTF-8 character (invalid UTF-8, control characters such as newline or ESC, DEL
    /// and the C1 controls) is written \xHH, and a backslash is written \\. Different names
    /// therefore always look different, the original bytes can be read back, and no name can
    /// break a line or reach the terminal as a command.
    public var escaped: String {
        var text = ""
        var index = 0
        while index < bytes.count {
            // The length a UTF-8 sequence starting with this byte has; validation then rejects
            // stray continuation bytes, overlong forms and surrogates.
            let lead = bytes[index]
            let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            guard index + length <= bytes.count,
                  let scalar = String(validating: bytes[index..<(index + length)], as: UTF8.self)?.unicodeScalars.first else {
                text += PathName.escape(bytes[index])
                index += 1
                continue
            }
            if scalar == "\\" {
                text += "\\\\"
            } else if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                text += bytes[index..<(index + length)].map(PathName.escape).joined()
            } else {
                text.unicodeScalars.append(scalar)
            }
            index += length
        }
        return text
    }

    private static func escape(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16)
        return "\\x" + (hex.count == 1 ? "0" + hex : hex)
    }

    /// The bytes as lower-case hex, two digits each: the exact name where it is not UTF-8.
    public var hex: String { bytes.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined() }
}
