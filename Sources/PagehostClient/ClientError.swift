/// What can go wrong talking to a Pagehost server. `kind` is a short, stable name for grouping failures
/// (the load report counts errors by it); `description` says what happened.
public enum ClientError: Error, Sendable, CustomStringConvertible {
    /// The address did not resolve or no connection could be made (`connect` failed).
    case connectFailed(String)
    /// Nothing arrived (or could be sent) before the deadline.
    case timedOut(String)
    /// The peer closed the connection (or a WebSocket close frame arrived).
    case closed(String)
    /// The peer sent something that is not HTTP / WebSocket as the client understands it.
    case protocolViolation(String)
    /// The server answered with an error status: its HTTP status, the API's error code and message.
    case http(status: Int, code: String, message: String)
    /// The WebSocket upgrade was refused with this HTTP status.
    case handshakeRefused(status: Int, body: String)

    public var kind: String {
        switch self {
        case .connectFailed: return "connect"
        case .timedOut: return "timeout"
        case .closed: return "closed"
        case .protocolViolation: return "protocol"
        case .http(let status, let code, _): return "http \(status) \(code)"
        case .handshakeRefused(let status, _): return "stream refused \(status)"
        }
    }

    public var description: String {
        switch self {
        case .connectFailed(let what), .timedOut(let what), .closed(let what), .protocolViolation(let what):
            return "\(kind): \(what)"
        case .http(let status, let code, let message):
            return "HTTP \(status) \(code): \(message)"
        case .handshakeRefused(let status, let body):
            return "stream upgrade refused with HTTP \(status): \(body)"
        }
    }
}
