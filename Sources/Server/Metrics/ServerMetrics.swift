import Foundation
import PagehostCore

/// Counters for `GET /metrics`, kept by watching the host's events and the server's own traffic.
///
/// Thread: LoopActor (events arrive synchronously from `host.events`).
@LoopActor
final class ServerMetrics {
    private(set) var eventsEmitted = 0
    private(set) var popupsOpened = 0
    private(set) var popupsClosed: [String: Int] = [:]
    private(set) var popupsBlocked: [String: Int] = [:]
    private(set) var dialogsOpened = 0
    private(set) var dialogsAnswered: [String: Int] = [:]
    private(set) var httpRequests: [Int: Int] = [:]
    private(set) var streamConnections = 0
    private(set) var streamRefused: [Int: Int] = [:]
    /// Popups open now, so `page.closed` (which carries no role) can be counted as a popup closing.
    private var openPopups = Set<PageID>()
    private var subscription: Int?
    let processTree = ProcessTreeSampler()

    func start(observing log: EventLog) {
        guard subscription == nil else { return }
        subscription = log.subscribe { [weak self] event in self?.observe(event) }
    }

    func stop(observing log: EventLog) {
        if let subscription { log.unsubscribe(subscription) }
        subscription = nil
    }

    func observe(_ event: Event) {
        eventsEmitted += 1
        switch event.payload {
        case .pageOpened(let page) where page.role == .popup:
            popupsOpened += 1
            openPopups.insert(page.id)
        case .pageClosed(_, let page, let reason, _):
            if openPopups.remove(page) != nil { popupsClosed[reason.rawValue, default: 0] += 1 }
        case .popupBlocked(_, _, _, let reason):
            popupsBlocked[reason.rawValue, default: 0] += 1
        case .dialogOpened:
            dialogsOpened += 1
        case .dialogClosed(_, _, let by):
            dialogsAnswered[by.rawValue, default: 0] += 1
        default:
            break
        }
    }

    func countRequest(status: Int) {
        httpRequests[status, default: 0] += 1
    }

    func countStreamConnection() { streamConnections += 1 }

    func countStreamRefused(status: Int) { streamRefused[status, default: 0] += 1 }

    /// The Prometheus text exposition (version 0.0.4).
    func render(host: SessionHost, hub: StreamHub, tree: ProcessTree? = nil) -> String {
        var out = PrometheusText()
        let snapshots = host.snapshots
        out.gauge("pagehost_sessions", "Sessions open.", Double(snapshots.count))
        let pages = snapshots.flatMap(\.pages)
        out.gauge("pagehost_pages", "Pages open, by role.", [
            (["role": "main"], Double(pages.filter { $0.role == .main }.count)),
            (["role": "popup"], Double(pages.filter { $0.role == .popup }.count)),
        ])
        out.counter("pagehost_popups_opened_total", "Popups that opened.", Double(popupsOpened))
        out.counter("pagehost_popups_closed_total", "Popups that closed, by reason.",
                    Event.CloseReason.allReasons.map { (["reason": $0], Double(popupsClosed[$0, default: 0])) })
        out.counter("pagehost_popups_blocked_total", "Popups refused, by reason.",
                    ["policy", "limit", "openerClosed"].map { (["reason": $0], Double(popupsBlocked[$0, default: 0])) })
        out.gauge("pagehost_dialogs_pending", "Dialogs waiting for an answer.", Double(pages.filter { $0.dialog != nil }.count))
        out.counter("pagehost_dialogs_opened_total", "Dialogs pages showed.", Double(dialogsOpened))
        out.counter("pagehost_dialogs_answered_total", "Dialogs answered, by who answered.",
                    ["policy", "command", "pageClosed"].map { (["by": $0], Double(dialogsAnswered[$0, default: 0])) })
        out.gauge("pagehost_stream_clients", "Stream clients connected.", Double(hub.clientCount))
        out.counter("pagehost_stream_connections_total", "Stream connections accepted.", Double(streamConnections))
        out.counter("pagehost_stream_refused_total", "Stream upgrades refused, by HTTP status.",
                    streamRefused.keys.sorted().map { (["status": String($0)], Double(streamRefused[$0]!)) })
        out.gauge("pagehost_stream_queued_bytes", "Bytes queued for stream clients now.", Double(hub.queuedBytes))
        out.gauge("pagehost_stream_client_queue_max_bytes", "The most bytes ever queued for one stream client.",
                  Double(hub.maxQueuedBytes))
        out.counter("pagehost_stream_snapshots_total", "Snapshots sent to stream clients.", Double(hub.snapshotsSent))
        out.counter("pagehost_events_emitted_total", "Events the host emitted.", Double(eventsEmitted))
        out.counter("pagehost_events_dropped_total", "Events not sent to a slow stream client (a snapshot replaced them).",
                    Double(hub.droppedEvents))
        out.counter("pagehost_events_coalesced_total", "page.updated events merged into a later one for a slow client.",
                    Double(hub.coalescedEvents))
        out.counter("pagehost_http_requests_total", "HTTP requests answered, by status.",
                    httpRequests.keys.sorted().map { (["status": String($0)], Double(httpRequests[$0]!)) })
        out.gauge("pagehost_resident_memory_bytes", "Resident memory of the pagehost process.", Double(Self.residentBytes() ?? 0))
        if let tree { Self.render(tree, into: &out) }
        return out.text
    }

    /// The process tree by kind: where the memory is (WebKit's processes hold most of it).
    private static func render(_ tree: ProcessTree, into out: inout PrometheusText) {
        let kinds = ProcessTree.Kind.allCases
        func sum(_ value: (ProcessTree.Process) -> Int?) -> [([String: String], Double)] {
            kinds.map { kind in
                (["kind": kind.rawValue], Double(tree.processes.filter { $0.kind == kind }.reduce(0) { $0 + (value($1) ?? 0) }))
            }
        }
        out.gauge("pagehost_processes", "Processes in pagehost's tree (itself, WebKit web and network processes, the X server it started), by kind.",
                  sum { _ in 1 })
        out.gauge("pagehost_process_resident_bytes", "Resident memory of pagehost's process tree, by kind; pages shared between processes count in each.",
                  sum(\.residentBytes))
        out.gauge("pagehost_process_pss_bytes", "Proportional set size of pagehost's process tree, by kind: shared pages split between their sharers, so the sum is what the tree costs.",
                  sum(\.pssBytes))
    }

    /// VmRSS from /proc/self/status (a small procfs read, which does not block).
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 2, let kib = Int(fields[1]) else { return nil }
        return kib * 1024
    }
}

extension Event.CloseReason {
    static let allReasons = ["script", "admin", "session", "crash"]
}
