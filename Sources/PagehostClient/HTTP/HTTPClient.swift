import PagehostCore

/// A small HTTP/1.1 client for Pagehost's API: one connection per request (`Connection: close`), a deadline
/// on the whole exchange, bodies by `Content-Length`, chunked or until close.
///
/// Threads: any; each call blocks its caller (run it on a thread of your own, never on the loop thread or
/// Swift's cooperative pool). Holds no state between calls, so it is freely shared.
public struct HTTPClient: Sendable {
    public var address: ServerAddress
    /// Sent as `Authorization: Bearer …` when set.
    public var token: String?
    /// Seconds a whole request may take.
    public var timeout: Double
    /// Responses larger than this fail (a screenshot of a big page is a few MB).
    public var maxBodyBytes = 64 << 20

    public init(address: ServerAddress, token: String?, timeout: Double = 30) {
        self.address = address
        self.token = token
        self.timeout = timeout
    }

    public struct Response: Sendable {
        public var head: HTTPResponseHead
        public var body: [UInt8]
        public var status: Int { head.status }
        public var text: String { String(decoding: body, as: UTF8.self) }

        /// The body as JSON (an empty body is null).
        public func json() throws(ClientError) -> JSONValue {
            guard !body.isEmpty else { return .null }
            do { return try JSONParser.parse(body) } catch {
                throw .protocolViolation("response body is not JSON: \(error)")
            }
        }
    }

    /// Sends one request and reads its whole response, whatever its status.
    public func send(_ method: String, _ path: String, body: [UInt8]? = nil,
                     contentType: String = "application/json") throws(ClientError) -> Response {
        let deadline = Deadline.after(seconds: timeout)
        let connection = try TCPConnection(host: address.host, port: address.port, deadline: deadline)
        defer { connection.close() }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(address.authority)\r\nConnection: close\r\nAccept: application/json\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        if let body {
            head += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
        } else if method == "POST" || method == "PUT" {
            head += "Content-Length: 0\r\n"
        }
        head += "\r\n"
        try connection.write(Array(head.utf8) + (body ?? []), deadline: deadline)
        return try Self.readResponse(from: connection, method: method, limit: maxBodyBytes, deadline: deadline)
    }

    /// Reads one response (skipping `100 Continue`) from `connection`.
    static func readResponse(from connection: TCPConnection, method: String, limit: Int,
                             deadline: Deadline) throws(ClientError) -> Response {
        var head: HTTPResponseHead
        repeat {
            head = try HTTPResponseHead.parse(try connection.read(through: Array("\r\n\r\n".utf8), limit: 64 << 10, deadline: deadline))
        } while head.status == 100
        if method == "HEAD" || head.status == 204 || head.status == 304 {
            return Response(head: head, body: [])
        }
        if head.isChunked {
            return Response(head: head, body: try readChunked(connection, limit: limit, deadline: deadline))
        }
        if let length = head.contentLength {
            guard length <= limit else { throw .protocolViolation("body of \(length) bytes is over the limit of \(limit)") }
            return Response(head: head, body: try connection.read(length, deadline: deadline))
        }
        return Response(head: head, body: try connection.readToEnd(limit: limit, deadline: deadline))
    }

    private static func readChunked(_ connection: TCPConnection, limit: Int, deadline: Deadline) throws(ClientError) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let line = String(decoding: try connection.read(through: Array("\r\n".utf8), limit: 1024, deadline: deadline).dropLast(2), as: UTF8.self)
            guard let size = Int(line.split(separator: ";").first ?? "", radix: 16), size >= 0 else {
                throw .protocolViolation("bad chunk size line: \(line.prefix(40))")
            }
            if size == 0 {
                // Trailers, up to the blank line.
                while try connection.read(through: Array("\r\n".utf8), limit: 64 << 10, deadline: deadline).count > 2 {}
                return body
            }
            guard body.count + size <= limit else { throw .protocolViolation("chunked body over the limit of \(limit)") }
            body += try connection.read(size, deadline: deadline)
            _ = try connection.read(2, deadline: deadline)
        }
    }

    // MARK: JSON helpers

    /// Sends `body` as JSON and returns the answer's JSON; an error status throws `.http` with the API's code.
    public func json(_ method: String, _ path: String, body: JSONValue? = nil) throws(ClientError) -> JSONValue {
        let response = try send(method, path, body: body.map { Array($0.serialized.utf8) })
        try Self.check(response)
        return try response.json()
    }

    /// Throws `.http` for a status of 400 or more, with the code and message of the API's error object.
    public static func check(_ response: Response) throws(ClientError) {
        guard response.status >= 400 else { return }
        let error = (try? response.json())?["error"]
        throw .http(status: response.status,
                    code: error?["code"]?.stringValue ?? "status_\(response.status)",
                    message: error?["message"]?.stringValue ?? String(response.text.prefix(200)))
    }
}
