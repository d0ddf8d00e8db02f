import PlantLeafCore
import PlantLeafSupport

/// The secret `--token-file` holds. Requests carry it as `Authorization: Bearer TOKEN` or as the
/// cookie the page's sign-in sets; it is compared through SHA-256 digests byte by byte without an
/// early exit, so the time taken does not tell how much of a guess was right.
public struct AccessToken: Sendable {
    private let digest: [UInt8]
    private let text: String
    /// The cookie's name on `port`: a browser keeps one cookie per name and host whatever the
    /// port, so two servers on one host would otherwise sign each other out.
    static func cookieName(port: UInt16) -> String { "plantleaf_token_\(port)" }

    /// Reads the token: the file's first line, without surrounding whitespace, at least 16
    /// characters of printable ASCII (it travels in a header and a cookie).
    ///
    /// - Throws: `ServeError.unusableFile` when the file cannot be read or the token is unfit.
    public init(file path: String) throws(ServeError) {
        let bytes: [UInt8]
        do {
            bytes = try FileReader.readAll(path: path, maximumSize: 4096)
        } catch {
            throw .unusableFile(path: path, what: "token file", reason: error.reason)
        }
        let line = String(decoding: bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).first ?? [], as: UTF8.self)
        let token = line.trimmingWhitespace()
        guard token.count >= 16, token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ";") }) else {
            throw .unusableFile(path: path, what: "token file", reason: "its first line must be a token of at least 16 printable ASCII characters "
                                + "without spaces or semicolons (for example: head -c 24 /dev/urandom | base64 > \(path))")
        }
        text = token
        digest = Array(SHA256.hex(of: Array(token.utf8)).utf8)
    }

    /// A token given as text (the fuzzer's), unchecked.
    package init(token: String) {
        text = token
        digest = Array(SHA256.hex(of: Array(token.utf8)).utf8)
    }

    /// Whether `candidate` is the token.
    func matches(_ candidate: [UInt8]) -> Bool {
        let other = Array(SHA256.hex(of: candidate).utf8)
        var difference: UInt8 = 0
        for index in 0..<digest.count { difference |= digest[index] ^ other[index] }
        return difference == 0
    }

    /// Whether the request carries the token, in its Authorization header or its cookie.
    func admits(_ request: HTTPRequest) -> Bool {
        if let authorization = request.headers["authorization"], authorization.hasPrefix("Bearer ") {
            return matches(Array(authorization.dropFirst("Bearer ".count).utf8))
        }
        // A browser may send several cookies of this name (one set for a parent domain, an old
        // one for another path): any that carries the token will do. Each is compared whole.
        let name = AccessToken.cookieName(port: request.localPort)
        var admitted = false
        for pair in (request.headers["cookie"] ?? "").split(separator: ";") {
            let parts = pair.trimmingWhitespace().split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0] == name, matches(Array(parts[1].utf8)) { admitted = true }
        }
        return admitted
    }

    /// The Set-Cookie value the sign-in on `port` answers with: sent back only to this server,
    /// never to scripts, for a year; under HTTPS, never over plain HTTP.
    func cookie(port: UInt16, secure: Bool) -> String {
        "\(AccessToken.cookieName(port: port))=\(text); Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000" + (secure ? "; Secure" : "")
    }
}
