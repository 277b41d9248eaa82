import Foundation
import PagehostClient
import PagehostCore

/// What `pagehost load` saw, computed once at the end: a table for people, one JSON object for programs.
struct LoadReport {
    struct Timing {
        var startedAt: UInt64
        var createdAllAt: UInt64
        var upAt: UInt64
        var closingAt: UInt64
        var closedAt: UInt64
    }

    /// count, p50, p95, p99 and max of a set of durations in milliseconds.
    struct Distribution {
        var values: [Double]

        init(_ values: [Double]) { self.values = values.sorted() }

        /// Nearest-rank percentile.
        func percentile(_ p: Double) -> Double? {
            guard !values.isEmpty else { return nil }
            let rank = Int((p / 100 * Double(values.count)).rounded(.up))
            return values[min(max(rank, 1), values.count) - 1]
        }

        var json: JSONValue {
            .object([("count", .int(values.count)), ("p50", Self.ms(percentile(50))), ("p95", Self.ms(percentile(95))),
                     ("p99", Self.ms(percentile(99))), ("max", Self.ms(values.last))])
        }

        static func ms(_ value: Double?) -> JSONValue { value.map { .number(($0 * 10).rounded() / 10) } ?? .null }
    }

    let options: LoadOptions
    let server: String
    var inProcess: Bool { options.server == nil }
    let peaks: LoadRun.ServerPeaks
    let timing: Timing
    let interrupted: Bool

    let requested: Int
    let created: Int
    let loaded: Int
    let failed: Int
    let createLatency: Distribution
    let loadTime: Distribution
    let popupsOpened: Int
    let popupTime: Distribution
    let popupsClosed: [String: Int]
    let popupsBlocked: [String: Int]
    let dialogsSeen: Int
    let dialogsAnswered: [String: Int]
    let events: Int
    let eventsForRun: Int
    let stream: StreamContinuity
    let errors: [String: Int]

    init(options: LoadOptions, server: String, tracker: LoadTracker, peaks: LoadRun.ServerPeaks, timing: Timing) {
        self.options = options
        self.server = server
        self.peaks = peaks
        self.timing = timing
        let records = tracker.sessionRecords()
        func ms(_ from: UInt64?, _ to: UInt64?) -> Double? {
            guard let from, let to, to >= from else { return nil }
            return Double(to - from) / 1e6
        }
        (interrupted, requested) = tracker.withLock { (tracker.interrupted, options.sessions) }
        created = records.filter { $0.sessionID != nil }.count
        loaded = records.filter { $0.loadedAt != nil && $0.failure == nil }.count
        // A session that did not start or finish loading because of an interrupt is not a failure.
        failed = records.filter { $0.failure != nil }.count
        createLatency = Distribution(records.compactMap { ms($0.startedAt, $0.createdAt) })
        loadTime = Distribution(records.filter { $0.failure == nil }.compactMap { ms($0.startedAt, $0.loadedAt) })
        popupsOpened = records.reduce(0) { $0 + $1.popupsOpenedAt.count }
        popupTime = Distribution(records.flatMap { record in record.popupsOpenedAt.compactMap { ms(record.startedAt, $0) } })
        (popupsClosed, popupsBlocked, dialogsSeen, dialogsAnswered) = tracker.withLock {
            (tracker.popupsClosed, tracker.popupsBlocked, tracker.dialogsSeen, tracker.dialogsAnswered)
        }
        (events, eventsForRun, stream, errors) = tracker.withLock {
            (tracker.eventsReceived, tracker.eventsForRun, tracker.continuity, tracker.errors)
        }
    }

    var seconds: Double { Double(timing.closedAt - timing.startedAt) / 1e9 }
    var creationSeconds: Double { Double(timing.createdAllAt - timing.startedAt) / 1e9 }
    /// Sessions loaded per second of the creation phase.
    var sessionsPerSecond: Double { creationSeconds > 0 ? Double(loaded) / creationSeconds : 0 }
    var exitCode: Int32 { failed > 0 ? 1 : 0 }

    // MARK: JSON

    var json: JSONValue {
        func counts(_ dictionary: [String: Int], keys: [String] = []) -> JSONValue {
            let all = Set(keys).union(dictionary.keys).sorted()
            return .object(all.map { ($0, .int(dictionary[$0, default: 0])) })
        }
        func round(_ value: Double, _ places: Double = 1000) -> JSONValue { .number((value * places).rounded() / places) }
        var serverMembers: [(String, JSONValue)] = [
            ("url", .string(server)),
            ("inProcess", .bool(inProcess)),
            ("peakResidentBytes", peaks.residentBytes.map(JSONValue.int) ?? .null),
            ("peakProcessCount", peaks.processCount.map(JSONValue.int) ?? .null),
            ("processCountSource", .string(peaks.processCountSource)),
            ("peakTreeResidentBytes", peaks.treeResidentBytes.map(JSONValue.int) ?? .null),
            ("peakTreePSSBytes", peaks.treePSSBytes.map(JSONValue.int) ?? .null),
            ("metricsSamples", .int(peaks.metricsSamples)),
            ("missingMetrics", .array(peaks.missingMetrics.map(JSONValue.string))),
        ]
        if let error = peaks.metricsError { serverMembers.append(("metricsError", .string(error))) }
        return .object([
            ("target", .string(options.targetDescription)),
            ("options", .object([
                ("sessions", .int(options.sessions)), ("concurrency", .int(options.concurrency)),
                ("popupMode", .string(options.popupMode.rawValue)), ("dialogs", .string(options.acceptDialogs ? "accept" : "dismiss")),
                ("hold", .number(options.hold)), ("closePopups", options.closePopupsAfter.map(JSONValue.number) ?? .null),
                ("processModel", .string(options.processModel)), ("timeout", .number(options.timeout)),
            ])),
            ("interrupted", .bool(interrupted)),
            ("seconds", round(seconds)),
            ("sessions", .object([
                ("requested", .int(requested)), ("created", .int(created)), ("loaded", .int(loaded)), ("failed", .int(failed)),
                ("perSecond", round(sessionsPerSecond, 100)),
            ])),
            ("createMs", createLatency.json),
            ("loadMs", loadTime.json),
            ("popups", .object([
                ("opened", .int(popupsOpened)),
                ("openMs", popupTime.json),
                ("closed", counts(popupsClosed, keys: ["script", "admin", "session", "crash"])),
                ("blocked", counts(popupsBlocked)),
            ])),
            ("dialogs", .object([
                ("seen", .int(dialogsSeen)),
                ("answered", .int(dialogsAnswered.values.reduce(0, +))),
                ("by", counts(dialogsAnswered)),
            ])),
            ("stream", .object([
                ("events", .int(events)), ("eventsOfRun", .int(eventsForRun)), ("seqJumps", .int(stream.seqJumps)),
                ("missedEvents", .number(Double(stream.missed))), ("coalescedEvents", .number(Double(stream.coalesced))),
                ("snapshots", .int(stream.snapshots)),
            ])),
            ("errors", counts(errors)),
            ("server", .object(serverMembers)),
        ])
    }

    // MARK: Table

    var table: String {
        func f(_ value: Double?) -> String { value.map { String(format: "%.1f", $0) } ?? "-" }
        func row(_ name: String, _ d: Distribution) -> String {
            name.padding(toLength: 30, withPad: " ", startingAt: 0)
                + [String(d.values.count), f(d.percentile(50)), f(d.percentile(95)), f(d.percentile(99)), f(d.values.last)]
                .map { $0.leftPadded(9) }.joined()
        }
        func list(_ dictionary: [String: Int], keys: [String] = []) -> String {
            let all = Set(keys).union(dictionary.keys).sorted()
            return all.isEmpty ? "none" : all.map { "\($0) \(dictionary[$0, default: 0])" }.joined(separator: ", ")
        }
        func mb(_ bytes: Int?) -> String { bytes.map { "\($0 / 1_048_576) MB" } ?? "unknown" }
        var lines: [String] = []
        let mode = inProcess ? "in-process server" : "server"
        lines.append("pagehost load: \(requested) sessions of \(options.targetDescription) on \(mode) \(server), concurrency \(options.concurrency), \(String(format: "%.1f", seconds)) s\(interrupted ? " (interrupted)" : "")")
        lines.append("")
        lines.append("".padding(toLength: 30, withPad: " ", startingAt: 0) + ["count", "p50 ms", "p95 ms", "p99 ms", "max ms"].map { $0.leftPadded(9) }.joined())
        lines.append(row("create (POST /api/sessions)", createLatency))
        lines.append(row("main page loaded", loadTime))
        lines.append(row("popup opened", popupTime))
        lines.append("")
        lines.append("sessions   created \(created), loaded \(loaded), failed \(failed) (\(String(format: "%.2f", sessionsPerSecond)) loaded/s)")
        lines.append("popups     opened \(popupsOpened), blocked \(list(popupsBlocked)); closed: \(list(popupsClosed, keys: ["admin", "crash", "script", "session"]))")
        lines.append("dialogs    seen \(dialogsSeen), answered \(dialogsAnswered.values.reduce(0, +)) (\(list(dialogsAnswered)))")
        lines.append("stream     events \(events) (\(eventsForRun) of this run), missed \(stream.missed), seq jumps \(stream.seqJumps) (\(stream.coalesced) updates merged for this slow client), snapshots \(stream.snapshots)")
        var server = "server     peak resident \(mb(peaks.residentBytes)) (pagehost process, /metrics)"
        if let pss = peaks.treePSSBytes { server += ", \(mb(pss)) whole process tree (PSS)" }
        if let tree = peaks.treeResidentBytes { server += ", \(mb(tree)) resident over the tree" }
        if let count = peaks.processCount { server += ", \(count) processes" }
        lines.append(server)
        if !peaks.missingMetrics.isEmpty { lines.append("           /metrics lacks: \(peaks.missingMetrics.joined(separator: "; "))") }
        if let error = peaks.metricsError { lines.append("           /metrics failed: \(error)") }
        if errors.isEmpty {
            lines.append("errors     none")
        } else {
            lines.append("errors")
            for (kind, count) in errors.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
                lines.append("  \(String(count).leftPadded(6))  \(kind)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? " " + self : String(repeating: " ", count: width - count) + self
    }
}
