import PagehostCore

/// Pagehost's public API (docs/protocol.md), typed: the HTTP calls the load command and the dashboard make,
/// and the stream. Blocking calls; see `HTTPClient` for threads.
public struct PagehostAPI: Sendable {
    public var http: HTTPClient

    public init(address: ServerAddress, token: String?, timeout: Double = 30) {
        http = HTTPClient(address: address, token: token, timeout: timeout)
    }

    public var address: ServerAddress { http.address }

    /// `GET /api/health`.
    public func health() throws(ClientError) -> JSONValue {
        try http.json("GET", "/api/health")
    }

    /// `POST /api/sessions`: the created Session object.
    public func createSession(_ body: JSONValue) throws(ClientError) -> JSONValue {
        try http.json("POST", "/api/sessions", body: body)
    }

    /// `DELETE /api/sessions/{sid}`.
    public func closeSession(_ sessionID: String) throws(ClientError) {
        _ = try http.json("DELETE", "/api/sessions/\(sessionID)")
    }

    /// `POST /api/sessions/{sid}/pages/{pid}/close`: closes a popup (reason `admin`) and returns once it is
    /// gone, saying whether it was forced (it did not agree within the server's grace period).
    @discardableResult
    public func closePage(_ sessionID: String, _ pageID: String) throws(ClientError) -> Bool {
        try http.json("POST", "/api/sessions/\(sessionID)/pages/\(pageID)/close")["forced"]?.boolValue ?? false
    }

    /// `POST /api/sessions/{sid}/dialogs/{did}`.
    public func answerDialog(_ sessionID: String, _ dialogID: String, accept: Bool, text: String? = nil) throws(ClientError) {
        var body: [(String, JSONValue)] = [("accept", .bool(accept))]
        if let text { body.append(("text", .string(text))) }
        _ = try http.json("POST", "/api/sessions/\(sessionID)/dialogs/\(dialogID)", body: .object(body))
    }

    /// `GET /metrics`, parsed.
    public func metrics() throws(ClientError) -> PrometheusSamples {
        let response = try http.send("GET", "/metrics")
        try HTTPClient.check(response)
        return PrometheusSamples(text: response.text)
    }

    /// Opens `GET /api/stream` (subprotocol `pagehost.v1`), from `since` when given.
    public func openStream(since: UInt64? = nil, session: String? = nil, timeout: Double = 10) throws(ClientError) -> WebSocketClient {
        var query: [String] = []
        if let since { query.append("since=\(since)") }
        if let session { query.append("session=\(session)") }
        let path = "/api/stream" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        return try WebSocketClient.connect(to: http.address, path: path, token: http.token, timeout: timeout)
    }
}
