import PagehostCore

/// One connected stream client: its filter, its bounded outbox, and how to wake its connection when there is
/// something to write.
///
/// Thread: the loop thread (LoopActor).
@LoopActor
public final class StreamClient {
    public let id: Int
    /// Only this session's events and state, when set (`?session=ID`).
    public let sessionFilter: SessionID?
    /// What its token may do: a viewer's commands that change anything are refused.
    public internal(set) var role: Role = .operator
    var outbox: StreamOutbox
    /// Asks the transport for a writeable callback (lws_callback_on_writable).
    private let wake: @LoopActor () -> Void
    /// Set once the client wants to be closed (it overran its bound with command answers alone).
    private(set) var mustClose = false
    private var wakePending = false

    init(id: Int, sessionFilter: SessionID?, limits: ServerConfiguration.Limits, wake: @escaping @LoopActor () -> Void) {
        self.id = id
        self.sessionFilter = sessionFilter
        self.outbox = StreamOutbox(maxBytes: limits.streamClientBufferBytes,
                                   coalesceAfterBytes: limits.streamCoalesceAfterBytes)
        self.wake = wake
    }

    /// Whether the client's filter lets `event` through.
    func wants(_ event: Event) -> Bool {
        sessionFilter == nil || sessionFilter == event.sessionID
    }

    /// Queues an event (dropped, coalesced or snapshotted by the outbox's rules) and wakes the connection.
    func send(_ event: Event) {
        note(outbox.enqueue(event))
    }

    /// Queues an event whose message the hub serialized once for every client.
    func send(_ event: Event, serialized: () -> [UInt8]) {
        note(outbox.enqueue(event, serialized: serialized))
    }

    /// Queues a command's answer.
    func sendControl(_ message: JSONValue) {
        note(outbox.enqueueControl(Array(message.serialized.utf8)))
    }

    private func note(_ outcome: StreamOutbox.Outcome) {
        if outcome == .mustClose { mustClose = true }
        if outcome != .skipped { requestWrite() }
    }

    /// Asks for one writeable callback; further requests wait until it has come.
    func requestWrite() {
        guard !wakePending else { return }
        wakePending = true
        wake()
    }

    /// Called at each writeable callback, before writing.
    func writeableArrived() {
        wakePending = false
    }
}
