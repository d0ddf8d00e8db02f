import PlantLeafCore
import PlantLeafSupport

/// A whole response: status, headers and body.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// A body sent as it is made instead of `body` (a camera stream), with no length ahead.
    public var stream: (any HTTPBodyStream)?

    public init(status: Int, contentType: String, body: [UInt8], headers: [(name: String, value: String)] = []) {
        self.status = status
        self.headers = [("Content-Type", contentType)] + headers
        self.body = body
    }

    /// A JSON document (one line, newline-ended, as classify's JSON lines).
    public static func json(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: Array((text + "\n").utf8))
    }

    /// An error as JSON: {"error": "..."}, what every API client can read.
    public static func error(_ status: Int, _ message: String) -> HTTPResponse {
        var object = JSONObject()
        object.add("error", message)
        return json(status, object.text)
    }
}
