import Foundation
import PagehostClient
import PagehostCore

/// What `pagehost load` knows about its sessions, fed by the workers (requests and their answers) and by the
/// stream reader (events). Sessions are recognised on the stream by their label (`<run> #<n>`), so events
/// that arrive before the HTTP answer are never lost.
///
/// Threads: any; one `NSCondition` guards everything, and waiters wake on every change.
final class LoadTracker: @unchecked Sendable {
    struct SessionRecord {
        var index: Int
        var sessionID: String?
        /// Monotonic nanoseconds: request sent, answer received, main page loaded.
        var startedAt: UInt64?
        var createdAt: UInt64?
        var loadedAt: UInt64?
        var mainPageID: String?
        /// Why the session failed (an error kind), once it did.
        var failure: String?
        var popupsOpenedAt: [UInt64] = []
        var openPopups: Set<String> = []
        var closed = false
    }

    let runLabel: String
    private let condition = NSCondition()
    private var records: [Int: SessionRecord] = [:]
    private var indexOfSession: [String: Int] = [:]
    private var popupsOfSession: [String: Set<String>] = [:]

    // Stream accounting.
    private(set) var eventsReceived = 0
    private(set) var eventsForRun = 0
    /// Whether the stream delivered every event (seq jumps, merged updates, missed events, snapshots).
    private(set) var continuity = StreamContinuity()
    private(set) var streamEnded: String?
    /// Monotonic time of the last event that opens or closes something (not page.updated).
    private var lastStructuralEventAt = Deadline.monotonicNanoseconds()

    // Totals over the run's sessions.
    private(set) var popupsClosed: [String: Int] = [:]
    private(set) var popupsBlocked: [String: Int] = [:]
    private(set) var dialogsSeen = 0
    private(set) var dialogsAnswered: [String: Int] = [:]
    private var dialogsPending: Set<String> = []
    private(set) var errors: [String: Int] = [:]
    var interrupted = false
    /// Set just before the client closes the stream itself, so its end is not an error.
    var closingStream = false

    /// Called (outside the lock) for each dialog of the run's sessions: session id, dialog id.
    var onDialog: (@Sendable (String, String) -> Void)?

    init(runLabel: String) {
        self.runLabel = runLabel
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.broadcast(); condition.unlock() }
        return try body()
    }

    /// Waits until `done` holds (checked under the lock after every change) or `deadline` passes; returns
    /// whether it holds.
    @discardableResult
    func wait(until deadline: Deadline, _ done: () -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !done() {
            let left = Double(deadline.nanoseconds) - Double(Deadline.monotonicNanoseconds())
            if left <= 0 { return false }
            _ = condition.wait(until: Date(timeIntervalSinceNow: min(left / 1e9, 3600)))
        }
        return true
    }

    /// Wakes every waiter (after an outside change such as an interrupt).
    func poke() { withLock {} }

    // MARK: Workers

    func label(_ index: Int) -> String { "\(runLabel) #\(index)" }

    func started(_ index: Int) {
        withLock { records[index, default: SessionRecord(index: index)].startedAt = Deadline.monotonicNanoseconds() }
    }

    func created(_ index: Int, sessionID: String, session: JSONValue) {
        withLock {
            records[index, default: SessionRecord(index: index)].createdAt = Deadline.monotonicNanoseconds()
            bind(index, sessionID)
            absorb(session: session, at: Deadline.monotonicNanoseconds())
        }
    }

    func failed(_ index: Int, kind: String) {
        withLock { fail(index, kind) }
    }

    func countError(_ kind: String) {
        withLock { errors[kind, default: 0] += 1 }
    }

    func dialogAnswerFailed(_ dialogID: String, kind: String) {
        withLock {
            dialogsPending.remove(dialogID)
            errors[kind, default: 0] += 1
        }
    }

    /// Whether session `index` finished: loaded, failed, or the run was interrupted.
    func isSettled(_ index: Int) -> Bool {
        guard let record = records[index] else { return interrupted }
        return record.loadedAt != nil || record.failure != nil || interrupted
    }

    /// Must be called with the lock held (from inside `wait`).
    var snapshot: [SessionRecord] { records.values.sorted { $0.index < $1.index } }

    func sessionRecords() -> [SessionRecord] { withLock { snapshot } }

    /// Structural quiet: no popup or dialog opening or closing for `quiet` seconds and no dialog unanswered.
    func isQuiet(for quiet: Double) -> Bool {
        dialogsPending.isEmpty && Double(Deadline.monotonicNanoseconds() - lastStructuralEventAt) / 1e9 >= quiet
    }

    private func fail(_ index: Int, _ kind: String) {
        guard records[index]?.failure == nil else { return }
        records[index, default: SessionRecord(index: index)].failure = kind
        errors[kind, default: 0] += 1
    }

    private func bind(_ index: Int, _ sessionID: String) {
        records[index, default: SessionRecord(index: index)].sessionID = sessionID
        indexOfSession[sessionID] = index
    }

    // MARK: The stream

    /// One message from the stream, as received at `time` (monotonic ns).
    func receive(_ message: JSONValue, at time: UInt64) {
        var dialogs: [(String, String)] = []
        withLock {
            guard let type = message["type"]?.stringValue else { return }
            if type == "result" { return }
            if type == "error" {
                errors["stream command: \(message["error"]?["code"]?.stringValue ?? "error")", default: 0] += 1
                return
            }
            guard let seq = message["seq"].flatMap({ $0.doubleValue }).map({ UInt64($0) }) else { return }
            if type == "snapshot" {
                continuity.snapshot(seq: seq)
                for session in message["sessions"]?.arrayValue ?? [] { absorb(session: session, at: time) }
                return
            }
            eventsReceived += 1
            continuity.event(seq: seq, coalesced: UInt64(max(0, message["coalesced"]?.intValue ?? 0)))
            dialogs = handle(type, message, at: time)
        }
        if let onDialog { for (sid, did) in dialogs { onDialog(sid, did) } }
    }

    /// The stream ended (or could not be read): the reason, once.
    func streamFailed(_ reason: String) {
        withLock {
            if streamEnded == nil {
                streamEnded = reason
                if !closingStream { errors["stream: \(reason)", default: 0] += 1 }
            }
        }
    }

    /// Handles one event of any session; returns the dialogs to answer.
    private func handle(_ type: String, _ event: JSONValue, at time: UInt64) -> [(String, String)] {
        if type == "session.created", let session = event["session"] { absorb(session: session, at: time) }
        guard let sid = event["sessionId"]?.stringValue, let index = indexOfSession[sid] else { return [] }
        eventsForRun += 1
        let pageID = event["pageId"]?.stringValue
        switch type {
        case "page.opened":
            if let page = event["page"] { absorb(page: page, index: index, at: time) }
        case "page.updated":
            if let pageID, pageID == records[index]?.mainPageID, let navigation = event["changes"]?["navigation"] {
                mainNavigation(navigation, index: index, at: time)
            }
        case "page.closed":
            lastStructuralEventAt = time
            if let pageID, records[index]?.openPopups.remove(pageID) != nil {
                popupsClosed[event["reason"]?.stringValue ?? "unknown", default: 0] += 1
            }
        case "popup.blocked":
            lastStructuralEventAt = time
            popupsBlocked[event["reason"]?.stringValue ?? "unknown", default: 0] += 1
        case "dialog.opened":
            lastStructuralEventAt = time
            dialogsSeen += 1
            if let did = event["dialog"]?["id"]?.stringValue {
                dialogsPending.insert(did)
                return [(sid, did)]
            }
        case "dialog.closed":
            lastStructuralEventAt = time
            if let did = event["dialogId"]?.stringValue { dialogsPending.remove(did) }
            dialogsAnswered[event["by"]?.stringValue ?? "unknown", default: 0] += 1
        case "page.crashed":
            errors["page crashed: \(event["reason"]?.stringValue ?? "")", default: 0] += 1
            if pageID == records[index]?.mainPageID { fail(index, "main page crashed") }
        case "session.closed":
            records[index]?.closed = true
        default:
            break
        }
        return []
    }

    /// A Session object (from `session.created`, the POST answer or a snapshot).
    private func absorb(session: JSONValue, at time: UInt64) {
        guard let sid = session["id"]?.stringValue else { return }
        if indexOfSession[sid] == nil {
            guard let label = session["label"]?.stringValue, label.hasPrefix(runLabel + " #"),
                  let index = Int(label.dropFirst(runLabel.count + 2)) else { return }
            bind(index, sid)
        }
        guard let index = indexOfSession[sid] else { return }
        for page in session["pages"]?.arrayValue ?? [] { absorb(page: page, index: index, at: time) }
    }

    /// A Page object of the run's session `index`.
    private func absorb(page: JSONValue, index: Int, at time: UInt64) {
        guard let pid = page["id"]?.stringValue else { return }
        if page["role"]?.stringValue == "main" {
            records[index]?.mainPageID = pid
            if let navigation = page["navigation"], !navigation.isNull { mainNavigation(navigation, index: index, at: time) }
        } else if let sid = records[index]?.sessionID, popupsOfSession[sid, default: []].insert(pid).inserted {
            lastStructuralEventAt = time
            records[index]?.popupsOpenedAt.append(time)
            records[index]?.openPopups.insert(pid)
        }
    }

    private func mainNavigation(_ navigation: JSONValue, index: Int, at time: UInt64) {
        guard records[index]?.loadedAt == nil, records[index]?.failure == nil else { return }
        switch navigation["event"]?.stringValue {
        case "finished":
            records[index]?.loadedAt = time
        case let event? where event == "failed" || event == "failedProvisional":
            fail(index, "navigation \(event): \(navigation["error"]?.stringValue ?? "no error text")")
        default:
            break
        }
    }

    // MARK: Popups to close

    /// The run's open popups: (session id, page id).
    func openPopups() -> [(String, String)] {
        withLock {
            records.values.sorted { $0.index < $1.index }.flatMap { record in
                record.openPopups.sorted().compactMap { pid in record.sessionID.map { ($0, pid) } }
            }
        }
    }

    var openPopupCount: Int { records.values.reduce(0) { $0 + $1.openPopups.count } }
}
