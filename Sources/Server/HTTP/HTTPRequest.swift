/// One HTTP request as the server's handlers see it, independent of libwebsockets.
public struct HTTPRequest: Sendable {
    public enum Method: String, Sendable {
        case get = "GET", head = "HEAD", post = "POST", put = "PUT", delete = "DELETE", patch = "PATCH", options = "OPTIONS"
    }

    public var method: Method
    /// The decoded path, without the query (`/api/sessions/s1`).
    public var path: String
    /// Query arguments, decoded; the first of a repeated name wins.
    public var query: [String: String]
    /// The headers the server reads, by lower-case name (`authorization`, `cookie`, `origin`, `host`,
    /// `content-type`).
    public var headers: [String: String]
    public var body: [UInt8]

    public init(method: Method, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The path split on `/`, without empty segments.
    var segments: [Substring] { path.split(separator: "/") }
}
