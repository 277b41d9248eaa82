import PagehostCore

/// What is waiting to be written to one stream client, bounded in bytes.
///
/// - Events queue as serialized messages, in `seq` order.
/// - Once `coalesceAfterBytes` are queued (the client is behind), a `page.updated` for a page that already
///   has one queued replaces it: the queued one is removed and one message with both changes (later values
///   win) is appended with the newer `seq`; its `coalesced` member counts the earlier events folded into it.
/// - Past `maxBytes`, every queued event is dropped and a snapshot marker takes their place; until the
///   snapshot is written, new events are not queued (the snapshot, built when written, covers them).
/// - Command answers (`result`, `error`) are never dropped; if they alone pass `maxBytes`, the client is
///   misbehaving (sending commands without reading) and is closed.
///
/// A value type with no I/O, so the rules are tested on their own. Thread: the loop thread.
struct StreamOutbox {
    enum Next: Equatable {
        case message([UInt8])
        /// Build a snapshot of the state now and send it.
        case snapshot
    }

    enum Outcome: Equatable {
        case queued, coalesced, skipped, overflowed
        /// Command answers alone exceed the bound: close the client.
        case mustClose
    }

    private enum Item {
        case event(seq: UInt64, bytes: [UInt8])
        case update(PendingUpdate)
        case control([UInt8])
        case snapshot

        var byteCount: Int {
            switch self {
            case .event(_, let bytes), .control(let bytes): return bytes.count
            case .update(let update): return update.bytes.count
            case .snapshot: return 0
            }
        }

        var isEvent: Bool {
            switch self {
            case .event, .update: return true
            case .control, .snapshot: return false
            }
        }
    }

    private struct PendingUpdate {
        var sessionID: SessionID
        var pageID: PageID
        var seq: UInt64
        var changes: [(String, JSONValue)]
        /// Earlier `page.updated` events folded into this one.
        var folded: Int
        var bytes: [UInt8]

        mutating func render() {
            var json = Event(seq: seq, payload: .pageUpdated(sessionID, pageID, changes: changes)).json
            if folded > 0, case .object(var members) = json {
                members.append(("coalesced", .int(folded)))
                json = .object(members)
            }
            bytes = Array(json.serialized.utf8)
        }
    }

    let maxBytes: Int
    let coalesceAfterBytes: Int

    /// Items by a running number, so one can leave the middle of the queue without shifting the rest.
    private var items: [Int: Item] = [:]
    private var head = 0
    private var tail = 0
    /// The queued `page.updated` of each page, by item number.
    private var updates: [PageID: Int] = [:]
    private(set) var bytes = 0
    private(set) var snapshotPending = false
    /// Events that were queued and then dropped for a snapshot, or never queued because one was pending.
    private(set) var droppedEvents = 0
    private(set) var coalescedEvents = 0

    init(maxBytes: Int, coalesceAfterBytes: Int) {
        self.maxBytes = maxBytes
        self.coalesceAfterBytes = coalesceAfterBytes
    }

    var isEmpty: Bool { head == tail }

    /// Queues the snapshot that starts (or restarts) the stream.
    mutating func requestSnapshot() {
        guard !snapshotPending else { return }
        dropEvents()
        snapshotPending = true
        append(.snapshot)
    }

    mutating func enqueue(_ event: Event) -> Outcome {
        enqueue(event, serialized: { Array(event.json.serialized.utf8) })
    }

    /// `serialized` gives the event's message as every client gets it (the hub serializes an event once for
    /// all its clients); it is not called when the event is skipped or merged.
    mutating func enqueue(_ event: Event, serialized: () -> [UInt8]) -> Outcome {
        if snapshotPending {
            droppedEvents += 1
            return .skipped
        }
        if case .pageUpdated(let sid, let pid, let changes) = event.payload {
            if bytes >= coalesceAfterBytes, let number = updates[pid], case .update(var pending)? = items[number] {
                remove(number)
                pending.folded += 1
                pending.seq = event.seq
                pending.changes = Self.merge(pending.changes, changes)
                pending.render()
                coalescedEvents += 1
                updates[pid] = append(.update(pending))
                return checkBound(.coalesced)
            }
            let pending = PendingUpdate(sessionID: sid, pageID: pid, seq: event.seq, changes: changes, folded: 0, bytes: serialized())
            updates[pid] = append(.update(pending))
            return checkBound(.queued)
        }
        if case .pageClosed(_, let pid, _, _) = event.payload { updates[pid] = nil }
        append(.event(seq: event.seq, bytes: serialized()))
        return checkBound(.queued)
    }

    /// Queues a command's answer.
    mutating func enqueueControl(_ message: [UInt8]) -> Outcome {
        append(.control(message))
        return checkBound(.queued)
    }

    /// Takes the next thing to write.
    mutating func next() -> Next? {
        while head < tail {
            let number = head
            head += 1
            guard let item = items.removeValue(forKey: number) else { continue }
            bytes -= item.byteCount
            switch item {
            case .event(_, let message), .control(let message):
                return .message(message)
            case .update(let update):
                if updates[update.pageID] == number { updates[update.pageID] = nil }
                return .message(update.bytes)
            case .snapshot:
                snapshotPending = false
                return .snapshot
            }
        }
        return nil
    }

    // MARK: Internals

    @discardableResult
    private mutating func append(_ item: Item) -> Int {
        let number = tail
        tail += 1
        items[number] = item
        bytes += item.byteCount
        return number
    }

    private mutating func remove(_ number: Int) {
        guard let item = items.removeValue(forKey: number) else { return }
        bytes -= item.byteCount
    }

    private mutating func checkBound(_ outcome: Outcome) -> Outcome {
        guard bytes > maxBytes else { return outcome }
        requestSnapshot()
        return bytes > maxBytes ? .mustClose : .overflowed
    }

    private mutating func dropEvents() {
        for (number, item) in items where item.isEvent {
            items[number] = nil
            bytes -= item.byteCount
            switch item {
            case .update(let update): droppedEvents += 1 + update.folded
            default: droppedEvents += 1
            }
        }
        updates.removeAll()
    }

    /// `old` with `new`'s values replacing its own, and `new`'s other members after them.
    static func merge(_ old: [(String, JSONValue)], _ new: [(String, JSONValue)]) -> [(String, JSONValue)] {
        var merged = old
        for (key, value) in new {
            if let index = merged.firstIndex(where: { $0.0 == key }) {
                merged[index].1 = value
            } else {
                merged.append((key, value))
            }
        }
        return merged
    }
}
