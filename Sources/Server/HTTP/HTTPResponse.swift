import PagehostCore

/// One HTTP response: status, headers and the whole body (bodies are small, or a PNG the engine made).
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON body.
    static func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("content-type", "application/json; charset=utf-8")],
                     body: Array(value.serialized.utf8))
    }

    /// `{"error":{"code":…,"message":…}}` with the code's status.
    static func error(_ error: PagehostError) -> HTTPResponse {
        json(error.json, status: error.httpStatus)
    }

    static func error(status: Int, code: String, message: String) -> HTTPResponse {
        json(["error": ["code": .string(code), "message": .string(message)]], status: status)
    }

    static func noContent() -> HTTPResponse { HTTPResponse(status: 204) }

    func with(header name: String, _ value: String) -> HTTPResponse {
        var copy = self
        copy.headers.append((name, value))
        return copy
    }
}
