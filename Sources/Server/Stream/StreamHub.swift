import PagehostCore

/// Fans the host's events out to every stream client, each through its own bounded outbox, and builds the
/// snapshots clients start (or restart) with.
///
/// Thread: the loop thread (LoopActor). Events arrive synchronously from `host.events`; writes happen later,
/// one message per writeable callback, so no client can hold up the loop.
@LoopActor
public final class StreamHub {
    let host: SessionHost
    let limits: ServerConfiguration.Limits
    private var clients: [Int: StreamClient] = [:]
    private var nextID = 0
    private var subscription: Int?
    /// Totals over every client, including those gone, for /metrics.
    private(set) var droppedEventsOfClosedClients = 0
    private(set) var coalescedEventsOfClosedClients = 0
    private(set) var snapshotsSent = 0
    private(set) var maxQueuedBytes = 0

    init(host: SessionHost, limits: ServerConfiguration.Limits) {
        self.host = host
        self.limits = limits
    }

    func start() {
        guard subscription == nil else { return }
        subscription = host.events.subscribe { [weak self] event in self?.broadcast(event) }
    }

    func stop() {
        if let subscription { host.events.unsubscribe(subscription) }
        subscription = nil
    }

    public var clientCount: Int { clients.count }

    /// Whether some client gets `session`'s events: an unfiltered one, or one filtered on it.
    func watches(_ session: SessionID) -> Bool {
        clients.values.contains { $0.sessionFilter == nil || $0.sessionFilter == session }
    }
    var isFull: Bool { clients.count >= limits.streamClients }

    /// Events dropped for snapshots, over all clients ever connected.
    var droppedEvents: Int { droppedEventsOfClosedClients + clients.values.reduce(0) { $0 + $1.outbox.droppedEvents } }
    var coalescedEvents: Int { coalescedEventsOfClosedClients + clients.values.reduce(0) { $0 + $1.outbox.coalescedEvents } }
    var queuedBytes: Int { clients.values.reduce(0) { $0 + $1.outbox.bytes } }

    /// Adds a client. It starts with the events after `since` when the log still holds them all, else with a
    /// snapshot.
    func connect(sessionFilter: SessionID?, since: UInt64?, wake: @escaping @LoopActor () -> Void) -> StreamClient {
        nextID += 1
        let client = StreamClient(id: nextID, sessionFilter: sessionFilter, limits: limits, wake: wake)
        clients[client.id] = client
        if let since, let missed = host.events.events(after: since) {
            for event in missed where client.wants(event) { client.send(event) }
            client.requestWrite()
        } else {
            client.outbox.requestSnapshot()
            client.requestWrite()
        }
        return client
    }

    func disconnect(_ client: StreamClient) {
        guard clients.removeValue(forKey: client.id) != nil else { return }
        droppedEventsOfClosedClients += client.outbox.droppedEvents
        coalescedEventsOfClosedClients += client.outbox.coalescedEvents
    }

    private func broadcast(_ event: Event) {
        // Serialized at most once, for the first client that queues it as it is (not merged, not skipped).
        var message: [UInt8]?
        let serialized = { () -> [UInt8] in
            if let message { return message }
            let bytes = Array(event.json.serialized.utf8)
            message = bytes
            return bytes
        }
        for id in clients.keys.sorted() {
            guard let client = clients[id], client.wants(event) else { continue }
            client.send(event, serialized: serialized)
            maxQueuedBytes = max(maxQueuedBytes, client.outbox.bytes)
        }
    }

    /// The next message for a client, or nil when its outbox is empty. Snapshots are built here, when they
    /// are about to be written, so they show the state as of the newest event.
    func nextMessage(for client: StreamClient) -> [UInt8]? {
        switch client.outbox.next() {
        case nil:
            return nil
        case .message(let bytes):
            return bytes
        case .snapshot:
            snapshotsSent += 1
            return Array(snapshot(for: client.sessionFilter).serialized.utf8)
        }
    }

    /// `{"type":"snapshot","seq":S,"sessions":[…]}`: S is the newest event the snapshot includes.
    func snapshot(for filter: SessionID?) -> JSONValue {
        let sessions = host.snapshots.filter { filter == nil || $0.id == filter }
        return .object([
            ("type", "snapshot"),
            ("seq", .number(Double(host.events.lastSeq))),
            ("sessions", .array(sessions.map(\.json))),
        ])
    }
}
