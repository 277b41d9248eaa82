import Foundation
import PagehostClient
import PagehostCore
import Server
import Synchronization

/// One run of `pagehost load` against a server: open the stream, open the sessions C at a time, let them
/// settle, close popups and hold as asked, close every session, and report.
///
/// Threads: `run` blocks the calling (main) thread, which only orchestrates and waits. The stream has a
/// reader thread, session creation `concurrency` worker threads, dialog answers and closing an `ActionPool`,
/// and metrics and the progress line a sampler thread. None of them is the server's loop thread, so a slow
/// server slows the figures, never the client.
final class LoadRun: @unchecked Sendable {
    let options: LoadOptions
    let api: PagehostAPI
    let tracker: LoadTracker
    /// The process whose tree to measure from /proc (the in-process server's: this process), or nil.
    let processTreeRoot: Int32?
    private let pool: ActionPool
    private let nextIndex = Mutex(0)
    private let peaks = Mutex(ServerPeaks())
    private let showProgress: Bool
    /// Whether the sampler thread goes on.
    private let sampling = Mutex(true)

    struct ServerPeaks: Sendable {
        var residentBytes: Int?
        var processCount: Int?
        var treeResidentBytes: Int?
        /// The whole tree's proportional set size, from the server's /metrics.
        var treePSSBytes: Int?
        var metricsSamples = 0
        var metricsError: String?
        var missingMetrics: [String] = []
        var processCountSource = "none"
    }

    init(options: LoadOptions, api: PagehostAPI, processTreeRoot: Int32?) {
        self.options = options
        self.api = api
        self.processTreeRoot = processTreeRoot
        tracker = LoadTracker(runLabel: "load-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))")
        pool = ActionPool(threads: min(8, max(2, options.concurrency)), name: "pagehost-load-actions")
        showProgress = !options.json && isatty(STDERR_FILENO) == 1
    }

    /// Marks the run interrupted: no new session starts, waits end, and what was opened is closed.
    func interrupt() {
        tracker.withLock { tracker.interrupted = true }
    }

    func run() throws(ClientError) -> LoadReport {
        let startedAt = Deadline.monotonicNanoseconds()
        let stream = try api.openStream()
        let api = self.api, tracker = self.tracker, pool = self.pool, accept = options.acceptDialogs
        tracker.onDialog = { sid, did in
            pool.submit {
                do throws(ClientError) { try api.answerDialog(sid, did, accept: accept) } catch {
                    // A dialog closed meanwhile (its page closed) answers 404: not the client's failure.
                    if case .http(404, _, _) = error { tracker.dialogAnswerFailed(did, kind: "answer dialog: gone") } else {
                        tracker.dialogAnswerFailed(did, kind: "answer dialog: \(error.kind)")
                    }
                }
            }
        }
        let reader = Thread { Self.read(stream, into: tracker) }
        reader.name = "pagehost-load-stream"
        reader.start()
        guard tracker.wait(until: .after(seconds: 15), { tracker.continuity.snapshots > 0 || tracker.streamEnded != nil }),
              tracker.withLock({ tracker.streamEnded }) == nil else {
            stream.close()
            throw .protocolViolation("the stream sent no snapshot: \(tracker.withLock { tracker.streamEnded } ?? "timed out")")
        }

        let sampler = Thread { [self] in sample() }
        sampler.name = "pagehost-load-sampler"
        sampler.start()

        // Create: `concurrency` workers, each opening one session at a time until it loaded or failed.
        let workers = DispatchGroup()
        for i in 0..<min(options.concurrency, options.sessions) {
            workers.enter()
            let thread = Thread { [self] in
                createSessions()
                workers.leave()
            }
            thread.name = "pagehost-load-worker-\(i)"
            thread.stackSize = 512 << 10
            thread.start()
        }
        workers.wait()
        let createdAllAt = Deadline.monotonicNanoseconds()

        // Settle: popups and dialogs of the last sessions arrive (a popup is announced once the engine knows
        // whether it has an opener, up to 2 s after it opened), and every dialog is answered.
        waitForQuiet(quiet: 3, deadline: .after(seconds: 20))
        let upAt = Deadline.monotonicNanoseconds()

        if let after = options.closePopupsAfter {
            waitInterruptibly(until: Deadline(nanoseconds: upAt + UInt64(after * 1e9)))
            closePopups()
        }
        waitInterruptibly(until: Deadline(nanoseconds: upAt + UInt64(options.hold * 1e9)))
        pool.drain()
        let closingAt = Deadline.monotonicNanoseconds()
        closeSessions()
        let closedAt = Deadline.monotonicNanoseconds()

        sampling.withLock { $0 = false }
        tracker.poke()
        while !sampler.isFinished { usleep(10_000) }
        sampleOnce()
        if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        tracker.withLock { tracker.closingStream = true }
        stream.close()
        while !reader.isFinished { usleep(10_000) }
        pool.stop()

        return LoadReport(options: options, server: api.address.description, tracker: tracker,
                          peaks: peaks.withLock { $0 },
                          timing: .init(startedAt: startedAt, createdAllAt: createdAllAt, upAt: upAt,
                                        closingAt: closingAt, closedAt: closedAt))
    }

    // MARK: Phases

    private func createSessions() {
        while true {
            let index = nextIndex.withLock { value -> Int? in
                guard value < options.sessions, !tracker.withLock({ tracker.interrupted }) else { return nil }
                value += 1
                return value
            }
            guard let index else { return }
            tracker.started(index)
            let started = Deadline.monotonicNanoseconds()
            do {
                let session = try api.createSession(options.sessionBody(label: tracker.label(index)))
                guard let sid = session["id"]?.stringValue else {
                    tracker.failed(index, kind: "create: answer without a session id")
                    continue
                }
                tracker.created(index, sessionID: sid, session: session)
            } catch {
                tracker.failed(index, kind: "create: \(error.kind)")
                continue
            }
            let deadline = Deadline(nanoseconds: started + UInt64(options.timeout * 1e9))
            if !tracker.wait(until: deadline, { tracker.isSettled(index) }) {
                tracker.failed(index, kind: "timeout: main page not loaded within \(Self.format(options.timeout)) s")
            }
        }
    }

    private func waitForQuiet(quiet: Double, deadline: Deadline) {
        while !deadline.hasPassed {
            let done = tracker.withLock { tracker.interrupted || tracker.isQuiet(for: quiet) }
            if done { return }
            // Wake on any change, or when the quiet period could have passed.
            let step = Deadline(nanoseconds: min(deadline.nanoseconds, Deadline.after(seconds: quiet / 5).nanoseconds))
            tracker.wait(until: step) { tracker.interrupted }
        }
    }

    private func waitInterruptibly(until deadline: Deadline) {
        tracker.wait(until: deadline) { tracker.interrupted }
    }

    private func closePopups() {
        let api = self.api, tracker = self.tracker
        for (sid, pid) in tracker.openPopups() {
            pool.submit {
                do throws(ClientError) { try api.closePage(sid, pid) } catch {
                    tracker.countError("close popup: \(error.kind)")
                }
            }
        }
        pool.drain()
        if !tracker.wait(until: .after(seconds: 15), { tracker.openPopupCount == 0 || tracker.streamEnded != nil }) {
            tracker.countError("close popup: page.closed did not arrive within 15 s")
        }
    }

    private func closeSessions() {
        let api = self.api, tracker = self.tracker
        let open = tracker.sessionRecords().filter { $0.sessionID != nil && !$0.closed }
        for record in open {
            guard let sid = record.sessionID else { continue }
            pool.submit {
                do throws(ClientError) { try api.closeSession(sid) } catch {
                    if case .http(404, _, _) = error { return }  // already gone
                    tracker.countError("close session: \(error.kind)")
                }
            }
        }
        pool.drain()
        let ids = Set(open.compactMap(\.sessionID))
        let closed = tracker.wait(until: .after(seconds: 30)) {
            tracker.streamEnded != nil || tracker.snapshot.allSatisfy { !ids.contains($0.sessionID ?? "") || $0.closed }
        }
        if !closed { tracker.countError("close session: session.closed did not arrive within 30 s") }
    }

    // MARK: Threads

    /// The stream reader: every message to the tracker, until the stream ends.
    private static func read(_ stream: WebSocketClient, into tracker: LoadTracker) {
        while true {
            do {
                guard let message = try stream.receive() else { continue }
                let time = Deadline.monotonicNanoseconds()
                guard case .text(let text) = message else { continue }
                do {
                    tracker.receive(try JSONParser.parse(text), at: time)
                } catch {
                    tracker.countError("stream: a message that is not JSON")
                }
            } catch {
                tracker.streamFailed(error.description)
                return
            }
        }
    }

    /// Samples /metrics (and the process tree when it is ours) once a second and draws the progress line
    /// four times a second, while `sampling` holds.
    private func sample() {
        var tick = 0
        while sampling.withLock({ $0 }) {
            if tick % 4 == 0 { sampleOnce() }
            if showProgress { drawProgress() }
            tick += 1
            tracker.wait(until: .after(seconds: 0.25)) { !sampling.withLock { $0 } }
        }
    }

    private func sampleOnce() {
        var resident: Int?, processes: Int?, treePSS: Int?, failure: String?, missing: [String] = []
        do {
            let metrics = try api.metrics()
            resident = metrics.value("pagehost_resident_memory_bytes").map { Int($0) }
            if resident == nil { missing.append("pagehost_resident_memory_bytes") }
            // The server's own view of its process tree (a server before these metrics has none).
            processes = metrics.value("pagehost_processes").map { Int($0) }
            if processes == nil { missing.append("pagehost_processes (web, network and X server processes)") }
            treePSS = metrics.value("pagehost_process_pss_bytes").map { Int($0) }
            if treePSS == nil { missing.append("pagehost_process_pss_bytes (the whole process tree's memory)") }
        } catch {
            failure = error.description
        }
        let tree = processTreeRoot.map { ProcessTree.of($0) }
        peaks.withLock { peaks in
            peaks.metricsSamples += failure == nil ? 1 : 0
            if let failure { peaks.metricsError = failure }
            if let resident { peaks.residentBytes = max(peaks.residentBytes ?? 0, resident) }
            if !missing.isEmpty { peaks.missingMetrics = missing }
            // The in-process server's tree is read here every second; the server's own figure is at most every
            // few seconds old (it reads PSS, which costs), so it is the one for a server elsewhere.
            if let tree {
                peaks.processCount = max(peaks.processCount ?? 0, tree.count)
                peaks.processCountSource = "/proc (the in-process server's tree)"
            } else if let processes {
                peaks.processCount = max(peaks.processCount ?? 0, processes)
                peaks.processCountSource = "/metrics"
            }
            if let tree { peaks.treeResidentBytes = max(peaks.treeResidentBytes ?? 0, tree.residentBytes) }
            if let treePSS { peaks.treePSSBytes = max(peaks.treePSSBytes ?? 0, treePSS) }
        }
    }

    private func drawProgress() {
        let (up, failed, popups, dialogs) = tracker.withLock { () -> (Int, Int, Int, Int) in
            let records = tracker.snapshot
            return (records.filter { $0.loadedAt != nil && $0.failure == nil }.count, records.filter { $0.failure != nil }.count,
                    records.reduce(0) { $0 + $1.popupsOpenedAt.count }, tracker.dialogsSeen)
        }
        let errors = tracker.withLock { tracker.errors.values.reduce(0, +) }
        let line = "\r\u{1B}[Kpagehost load: sessions up \(up) / \(options.sessions), failed \(failed), popups \(popups), dialogs \(dialogs), errors \(errors)"
        FileHandle.standardError.write(Data(line.utf8))
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
