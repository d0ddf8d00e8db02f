/// Reads the NUL-terminated text out of a fixed C `char name[N]` field, which Swift imports as a
/// tuple of CChar. The text stops at the first NUL or at the end of the field.
package func stringFromCField<Field>(_ field: Field) -> String {
    withUnsafeBytes(of: field) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}

/// Reads the NUL-terminated text at the start of a CChar buffer.
package func stringFromCBuffer(_ buffer: [CChar]) -> String {
    String(decoding: buffer.lazy.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
