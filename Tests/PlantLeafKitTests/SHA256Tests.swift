@testable import PlantLeafCore
@testable import PlantLeafCamera
import PlantLeafServe
import PlantLeafSupport
import PlantLeafTestSupport
import Testing

/// FIPS 180-4 example digests, and a file checked against coreutils' sha256sum; base64 (which
/// the sign-in page's policy gives the digest in) against RFC 4648's examples.
@Suite struct SHA256Tests {
    @Test func knownDigests() {
        #expect(SHA256.hex(of: []) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // 56 bytes: the length no longer fits in the first block's padding.
        #expect(SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(of: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func fileDigestMatchesSha256sum() throws {
        let checked = try runCommand("/usr/bin/sha256sum", [TestPaths.defaultModel])
        #expect(checked.status == 0)
        let expected = String(checked.stdout.prefix(64))
        #expect(SHA256.hex(ofFile: TestPaths.defaultModel) == expected)
        #expect(SHA256.hex(ofFile: TestPaths.root + "/no-such-file") == nil)
    }

    @Test func base64MatchesRFC4648() {
        let examples = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (text, encoded) in examples { #expect(Base64.encode(Array(text.utf8)) == encoded, "\(text)") }
        #expect(Base64.encode([0xFF, 0xFE, 0xFD, 0x00]) == "//79AA==")
        // The form a content security policy names an inline style by.
        #expect(Base64.encode(SHA256.digest(of: Array("abc".utf8))) == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=")
    }
}
