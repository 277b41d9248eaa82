/// The timelines of closed sessions, for post-mortem reading: bounded in count, events per session and age.
///
/// Thread: LoopActor, inside the host.
struct ClosedSessionArchive {
    private struct Entry {
        let closedAt: ContinuousClock.Instant
        let events: [Event]
    }

    private var entries: [SessionID: Entry] = [:]
    /// Oldest first, for purging.
    private var order: [SessionID] = []

    mutating func store(_ id: SessionID, events: [Event], now: ContinuousClock.Instant, limits: HostLimits) {
        purge(now: now, limits: limits)
        entries[id] = Entry(closedAt: now, events: Array(events.suffix(max(0, limits.closedSessionEvents))))
        order.append(id)
        while order.count > max(0, limits.closedSessionLimit) {
            entries[order.removeFirst()] = nil
        }
    }

    mutating func events(of id: SessionID, now: ContinuousClock.Instant, limits: HostLimits) -> [Event]? {
        purge(now: now, limits: limits)
        return entries[id]?.events
    }

    private mutating func purge(now: ContinuousClock.Instant, limits: HostLimits) {
        while let first = order.first, let entry = entries[first], now - entry.closedAt > limits.closedSessionRetention {
            entries[first] = nil
            order.removeFirst()
        }
    }
}
