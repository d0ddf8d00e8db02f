import PlantLeafServe
import PlantLeafSupport
import Testing

/// base64, which the sign-in page's content security policy gives an inline style's digest in,
/// against RFC 4648's examples.
@Suite struct Base64Tests {
    @Test func base64MatchesRFC4648() {
        let examples = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (text, encoded) in examples { #expect(Base64.encode(Array(text.utf8)) == encoded, "\(text)") }
        #expect(Base64.encode([0xFF, 0xFE, 0xFD, 0x00]) == "//79AA==")
        // The form a content security policy names an inline style by.
        #expect(Base64.encode(SHA256.digest(of: Array("abc".utf8))) == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=")
    }
}
