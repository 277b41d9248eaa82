import PagehostCore
import Testing

/// The event log: numbering, the bounded ring behind `?since=`, and subscribers.
@Suite("Event log")
struct EventLogTests {
    init() { startLoop() }

    /// A payload that names event `n`, so tests can tell events apart by more than their seq.
    private static func closed(_ n: Int) -> Event.Payload { .sessionClosed(SessionID("s\(n)")) }

    private static func sessions(_ events: [Event]?) -> [String]? {
        events?.map(\.sessionID.rawValue)
    }

    @Test("seq starts at 1 and increases by exactly 1 per event")
    @LoopActor func seqIncreasesByOne() {
        let log = EventLog(capacity: 100)
        #expect(log.lastSeq == 0)
        let seqs = (1...5).map { log.append(Self.closed($0)).seq }
        #expect(seqs == [1, 2, 3, 4, 5])
        #expect(log.lastSeq == 5)
        #expect(log.events(after: 0)?.map(\.seq) == [1, 2, 3, 4, 5])
    }

    @Test("a log of capacity N keeps the last N events")
    @LoopActor func ringKeepsLastN() {
        let log = EventLog(capacity: 3)
        for n in 1...7 { log.append(Self.closed(n)) }
        #expect(log.oldestSeq == 5)
        #expect(log.events(after: 4)?.map(\.seq) == [5, 6, 7])
        #expect(Self.sessions(log.events(after: 4)) == ["s5", "s6", "s7"])
        #expect(log.lastSeq == 7)
    }

    @Test("events(after:) returns exactly the later events")
    @LoopActor func eventsAfterReturnsLater() {
        let log = EventLog(capacity: 10)
        for n in 1...6 { log.append(Self.closed(n)) }
        #expect(log.events(after: 3)?.map(\.seq) == [4, 5, 6])
        #expect(Self.sessions(log.events(after: 3)) == ["s4", "s5", "s6"])
        #expect(log.events(after: 5)?.map(\.seq) == [6])
    }

    @Test("events(after:) across the ring's wrap-around keeps seq order")
    @LoopActor func eventsAfterAcrossWrap() {
        let log = EventLog(capacity: 4)
        for n in 1...10 { log.append(Self.closed(n)) }
        #expect(log.events(after: 6)?.map(\.seq) == [7, 8, 9, 10])
        #expect(log.events(after: 8)?.map(\.seq) == [9, 10])
    }

    @Test("events(after:) is nil when some later events are no longer held")
    @LoopActor func eventsAfterTooOld() {
        let log = EventLog(capacity: 3)
        for n in 1...7 { log.append(Self.closed(n)) }
        #expect(log.events(after: 3) == nil)
        #expect(log.events(after: 0) == nil)
        // One before the oldest held is the oldest resumable point.
        #expect(log.events(after: 4) != nil)
    }

    @Test("events(after:) is empty when the caller is up to date")
    @LoopActor func eventsAfterUpToDate() {
        let log = EventLog(capacity: 3)
        #expect(log.events(after: 0)?.isEmpty == true)
        for n in 1...5 { log.append(Self.closed(n)) }
        #expect(log.events(after: 5)?.isEmpty == true)
    }

    @Test("events(after:) is nil for a seq the log has not reached")
    @LoopActor func eventsAfterFuture() {
        let log = EventLog(capacity: 3)
        #expect(log.events(after: 1) == nil)
        log.append(Self.closed(1))
        #expect(log.events(after: 2) == nil)
        #expect(log.events(after: UInt64.max) == nil)
    }

    @Test("every subscriber receives each event once, in order")
    @LoopActor func subscribersReceiveInOrder() {
        let log = EventLog(capacity: 2)
        var first: [UInt64] = []
        var second: [UInt64] = []
        _ = log.subscribe { first.append($0.seq) }
        _ = log.subscribe { second.append($0.seq) }
        for n in 1...5 { log.append(Self.closed(n)) }
        // More events than the ring holds: subscribers see them all anyway.
        #expect(first == [1, 2, 3, 4, 5])
        #expect(second == [1, 2, 3, 4, 5])
    }

    @Test("a subscriber sees only events appended after it subscribed")
    @LoopActor func lateSubscriber() {
        let log = EventLog(capacity: 10)
        log.append(Self.closed(1))
        var seen: [UInt64] = []
        _ = log.subscribe { seen.append($0.seq) }
        log.append(Self.closed(2))
        #expect(seen == [2])
    }

    @Test("unsubscribing stops delivery to that subscriber only")
    @LoopActor func unsubscribeStopsDelivery() {
        let log = EventLog(capacity: 10)
        var gone: [UInt64] = []
        var staying: [UInt64] = []
        let token = log.subscribe { gone.append($0.seq) }
        _ = log.subscribe { staying.append($0.seq) }
        log.append(Self.closed(1))
        log.unsubscribe(token)
        log.append(Self.closed(2))
        log.append(Self.closed(3))
        #expect(gone == [1])
        #expect(staying == [1, 2, 3])
    }

    @Test("an event appended by a subscriber reaches every subscriber after the event that caused it")
    @LoopActor func reentrantAppendKeepsOrder() {
        let log = EventLog(capacity: 10)
        var reacting: [UInt64] = []
        var watching: [UInt64] = []
        _ = log.subscribe { event in
            reacting.append(event.seq)
            // A subscriber that answers an event with a command, which is itself an event.
            if event.seq == 1 { log.append(Self.closed(99)) }
        }
        _ = log.subscribe { watching.append($0.seq) }
        log.append(Self.closed(1))
        #expect(reacting == [1, 2])
        #expect(watching == [1, 2])
        #expect(log.events(after: 0)?.map(\.seq) == [1, 2])
    }
}
