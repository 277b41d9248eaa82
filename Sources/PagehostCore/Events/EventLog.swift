/// The server's events in `seq` order: a bounded ring of the most recent ones (for `?since=` resumption and
/// post-mortem reading) plus subscribers that see each event as it is appended.
///
/// Thread: the loop thread (LoopActor), like all core state.
@LoopActor
public final class EventLog {
    public typealias Subscriber = @LoopActor (Event) -> Void

    /// How many recent events are kept.
    public let capacity: Int
    private var ring: [Event?]
    private var start = 0
    private var count = 0
    public private(set) var lastSeq: UInt64 = 0
    private var subscribers: [Int: Subscriber] = [:]
    private var nextToken = 0
    /// Events appended but not yet handed to subscribers, while a delivery is under way.
    private var undelivered: [Event] = []
    private var isDelivering = false

    public init(capacity: Int = 10_000) {
        precondition(capacity > 0)
        self.capacity = capacity
        self.ring = Array(repeating: nil, count: capacity)
    }

    /// Numbers and records a change, and hands it to every subscriber.
    @discardableResult
    public func append(_ payload: Event.Payload) -> Event {
        lastSeq += 1
        let event = Event(seq: lastSeq, payload: payload)
        if count < capacity {
            ring[(start + count) % capacity] = event
            count += 1
        } else {
            ring[start] = event
            start = (start + 1) % capacity
        }
        undelivered.append(event)
        if !isDelivering { deliver() }
        return event
    }

    /// Hands the queued events to every subscriber in `seq` order. An event a subscriber appends waits until
    /// every subscriber has seen the one being delivered; otherwise later subscribers would see it first.
    private func deliver() {
        isDelivering = true
        defer { isDelivering = false }
        var next = 0
        while next < undelivered.count {
            let event = undelivered[next]
            next += 1
            // Sorted tokens: subscribers see events in the order they subscribed, every time.
            for token in subscribers.keys.sorted() {
                subscribers[token]?(event)
            }
        }
        undelivered.removeAll(keepingCapacity: true)
    }

    /// The oldest `seq` still held, or nil when none is.
    public var oldestSeq: UInt64? {
        count == 0 ? nil : ring[start]?.seq
    }

    /// The events after `seq`, or nil when some of them are no longer held (the caller then needs a snapshot).
    public func events(after seq: UInt64) -> [Event]? {
        if seq >= lastSeq { return seq == lastSeq ? [] : nil }
        guard let oldest = oldestSeq, seq + 1 >= oldest else { return nil }
        let skip = Int(seq + 1 - oldest)
        return (skip..<count).compactMap { ring[(start + $0) % capacity] }
    }

    /// The held events that `include` accepts, in `seq` order: all that is left of them once older ones left
    /// the ring. Copies only those (a session's timeline out of every session's events).
    public func events(matching include: (Event) -> Bool) -> [Event] {
        var found: [Event] = []
        for index in 0..<count {
            if let event = ring[(start + index) % capacity], include(event) { found.append(event) }
        }
        return found
    }

    /// Calls `subscriber` with every event appended from now on, until `unsubscribe`.
    public func subscribe(_ subscriber: @escaping Subscriber) -> Int {
        nextToken += 1
        subscribers[nextToken] = subscriber
        return nextToken
    }

    public func unsubscribe(_ token: Int) {
        subscribers[token] = nil
    }
}
