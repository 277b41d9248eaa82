import PagehostCore
import Testing

/// Timeouts that reap, each reported with the timeout's name; closed sessions keep their timeline.
@Suite("Timeouts")
struct TimeoutTests {
    init() { startLoop() }

    @Test("maxLifetime closes the session, saying why")
    @LoopActor func lifetime() async throws {
        let f = HostFixture()
        let session = try f.createSession { $0.maxLifetime = .milliseconds(50) }
        #expect(try await waitUntil(timeout: .seconds(30)) { f.host.sessionCount == 0 })
        let closed = try #require(f.host.timeline(of: session.id)?.last)
        #expect(closed.type == "session.closed")
        #expect(closed.json["reason"] == "maxLifetime")
    }

    @Test("idleTimeout spares a watched session and reaps it once nobody watches")
    @LoopActor func idle() async throws {
        let f = HostFixture()
        final class Watching { var yes = true }
        let watching = Watching()
        f.host.isWatched = { _ in watching.yes }
        let session = try f.createSession { $0.idleTimeout = .milliseconds(60) }
        try await Task.sleep(for: .milliseconds(250))
        #expect(f.host.sessionCount == 1)
        watching.yes = false
        #expect(try await waitUntil(timeout: .seconds(30)) { f.host.sessionCount == 0 })
        #expect(f.host.timeline(of: session.id)?.last?.json["reason"] == "idleTimeout")
    }

    @Test("commands keep a session from being idle")
    @LoopActor func commandsAreActivity() async throws {
        let f = HostFixture()
        // Generous margins: the loop this runs on is shared with the engine suites, which can hold it for a
        // while on a loaded 2-core machine.
        let session = try f.createSession { $0.idleTimeout = .seconds(5) }
        let main = session.pages[0].id
        for _ in 0..<3 {
            try await Task.sleep(for: .seconds(1))
            try f.host.navigate(main, to: .url("https://example.com/again"))
        }
        #expect(f.host.sessionCount == 1)
        #expect(try await waitUntil(timeout: .seconds(30)) { f.host.sessionCount == 0 })
    }

    @Test("dialogTimeout answers a forgotten dialog with dismiss")
    @LoopActor func dialogTimeout() async throws {
        let f = HostFixture()
        let main = try f.createSession { $0.dialogTimeout = .milliseconds(50) }.pages[0].id
        let id = try #require(f.reports.dialogRequested(on: main, kind: .confirm, message: "Still there?", defaultText: nil))
        #expect(try await waitUntil(timeout: .seconds(30)) { f.host.pendingDialog(id) == nil })
        #expect(f.engine.answers.last?.answer == .dismiss)
        let closed = try #require(f.host.timeline(of: try f.page(main).sessionID)?.last { $0.type == "dialog.closed" })
        #expect(closed.json["by"] == "timeout")
    }

    @Test("a closed session's timeline stays readable, bounded")
    @LoopActor func postMortem() throws {
        var limits = HostLimits()
        limits.closedSessionEvents = 3
        let f = HostFixture(limits: limits)
        let session = try f.createSession()
        let main = session.pages[0].id
        for i in 0..<5 { f.reports.pageChanged(main) { $0.title = "title \(i)" } }
        #expect((f.host.timeline(of: session.id)?.count ?? 0) >= 7)
        try f.host.closeSession(session.id)
        let timeline = try #require(f.host.timeline(of: session.id))
        #expect(timeline.count == 3)
        #expect(timeline.last?.type == "session.closed")
        #expect(f.host.timeline(of: SessionID("s999")) == nil)
    }

    @Test("timelines still read once the event log has wrapped: what the ring still holds, not nothing")
    @LoopActor func timelineAfterTheLogWrapped() throws {
        var limits = HostLimits()
        limits.eventLogCapacity = 20
        let f = HostFixture(limits: limits)
        let session = try f.createSession()
        let main = session.pages[0].id
        for i in 0..<50 { f.reports.pageChanged(main) { $0.title = "title \(i)" } }
        #expect(f.host.events.oldestSeq ?? 0 > 1, "the ring dropped its oldest events")
        let open = try #require(f.host.timeline(of: session.id))
        #expect(open.count == 20)
        #expect(open.last?.changes == ["title": "title 49"])
        try f.host.closeSession(session.id)
        let closed = try #require(f.host.timeline(of: session.id))
        #expect(closed.count == 20)
        #expect(closed.last?.type == "session.closed")
    }
}
