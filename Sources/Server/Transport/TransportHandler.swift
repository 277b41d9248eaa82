import PagehostCore

/// What the lws transport asks of the server. Everything here runs on the loop thread, inside lws callbacks.
@LoopActor
protocol TransportHandler: AnyObject {
    /// Answers an HTTP request (at once or later).
    func handle(_ request: HTTPRequest) -> HTTPHandler.Reply
    /// The largest request body accepted.
    var maxBodyBytes: Int { get }
    /// Checks a WebSocket upgrade; returns the refusal to send, or nil to let it through.
    func refuseUpgrade(_ request: HTTPRequest) -> HTTPResponse?
    /// A stream connection is established; `wake` asks lws for a writeable callback on it.
    func streamOpened(_ request: HTTPRequest, wake: @escaping @LoopActor () -> Void) -> StreamClient
    /// The next message for a stream client, or nil.
    func nextStreamMessage(for client: StreamClient) -> [UInt8]?
    /// A whole text message came from a stream client.
    func streamReceived(_ message: [UInt8], from client: StreamClient)
    func streamClosed(_ client: StreamClient)
    /// Counts an answered HTTP request.
    func answered(status: Int)
}
