import PagehostCore

/// What a token may do. `operator` (the configured `token`, or `tokens.operator`) may do everything; `viewer`
/// (`tokens.viewer`) may read: every `GET` (sessions, snapshots, timelines, screenshots, metrics, the
/// dashboard's files) and the stream, but no command that changes anything.
public enum Role: String, Sendable, Equatable {
    case `operator`
    case viewer

    /// Whether this role may make an HTTP request with `method` to an API path. Only `GET` (and `HEAD`) reads;
    /// every other method changes something, so it is the operator's, whatever route it names (new routes are
    /// safe by default).
    public func mayRequest(_ method: HTTPRequest.Method) -> Bool {
        self == .operator || method == .get || method == .head
    }

    /// Whether this role may send the stream command `op`. The viewer's are an allow-list of reads, so new
    /// ops are the operator's by default.
    public func mayRun(op: String) -> Bool {
        self == .operator || Self.viewerOps.contains(op)
    }

    /// Stream ops that only read.
    public static let viewerOps: Set<String> = ["listSessions", "getSession", "getEvents"]

    /// The 403 a viewer gets for an operator's request or op.
    static func refusal(_ what: String) -> (code: String, message: String) {
        ("forbidden", "\(what) needs the operator token; this token is a viewer's (it may read: GET requests and the stream)")
    }
}
