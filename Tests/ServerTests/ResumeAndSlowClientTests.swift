import Foundation
import PagehostCore
import Testing

/// `?since=` resumption and slow clients, with real WebKit pages.
@Suite("Resuming and slow clients with real pages")
struct ResumeAndSlowClientTests {
    static func createSession(_ fixture: ServerFixture, html: String, extra: [(String, JSONValue)] = []) async throws -> (sid: String, pid: String) {
        let created = try await fixture.http.post("/api/sessions", json: JSONValue.object([("html", .string(html))] + extra).serialized)
        let session = try JSONParser.parse(created.body)
        return (try #require(session["id"]?.stringValue), try #require(session["pages"]?.arrayValue?.first?["id"]?.stringValue))
    }

    static func evaluate(_ fixture: ServerFixture, _ sid: String, _ pid: String, _ script: String) async throws -> HTTPTestClient.Response {
        try await fixture.http.request("POST", "/api/sessions/\(sid)/pages/\(pid)/evaluate",
                                       body: Array(JSONValue.object([("script", .string(script))]).serialized.utf8), timeout: 120)
    }

    @Test func reconnectWithSinceGetsExactlyTheEventsAfterIt() async throws {
        let fixture = try await startServer(.webkit) { $0.limits.eventLogCapacity = 200 }
        let first = try await fixture.stream()
        _ = try await first.receiveJSON()
        let (sid, pid) = try await Self.createSession(fixture, html: "<title>one</title>")
        _ = try await first.receive(until: { $0.updates("title", to: "one") })
        _ = try await Self.evaluate(fixture, sid, pid, "for (let i = 0; i < 20; i++) { document.title = 't' + i; await new Promise(r => setTimeout(r, 1)); } document.title = 'end';")
        let events = try await first.receive(until: { $0.updates("title", to: "end") })
        let resumeAfter = try #require(events[events.count / 2].seq)

        // All the events after N, the same text, and nothing before them: no snapshot.
        let resumed = try await fixture.stream("?since=\(resumeAfter)")
        let wanted = events.filter { ($0.seq ?? 0) > resumeAfter }
        var got: [JSONValue] = []
        for _ in wanted { got.append(try await resumed.receiveJSON()) }
        #expect(got == wanted)
        #expect(got.first?.seq == resumeAfter + 1)

        // Later events keep coming to the resumed client.
        _ = try await Self.evaluate(fixture, sid, pid, "document.title = 'later';")
        let later = try await resumed.receiveJSON()
        #expect(later.updates("title", to: "later"))
        #expect(later.seq == events.last!.seq! + 1)

        // Push the event past the log's capacity (200): resuming after it gives a snapshot of the state now.
        _ = try await Self.evaluate(fixture, sid, pid, "for (let i = 0; i < 300; i++) { document.title = 'x' + i; await new Promise(r => setTimeout(r, 0)); } document.title = 'final';")
        _ = try await first.receive(until: { $0.updates("title", to: "final") }, timeout: 60)
        let tooOld = try await fixture.stream("?since=\(resumeAfter)")
        let snapshot = try await tooOld.receiveJSON()
        #expect(snapshot.type == "snapshot")
        let page = snapshot["sessions"]?.arrayValue?.first?["pages"]?.arrayValue?.first
        #expect(page?["title"] == "final")
        // A `since` beyond the newest event is not resumable either.
        let future = try await fixture.stream("?since=999999")
        #expect(try await future.receiveJSON().type == "snapshot")

        for client in [first, resumed, tooOld, future] { await client.close() }
        await fixture.stop()
    }

    @Test func aStalledClientCostsBoundedMemoryAndGetsASnapshotWhenItReadsAgain() async throws {
        let bound = 8 << 10
        let fixture = try await startServer(.webkit) {
            $0.limits.streamClientBufferBytes = bound
            // No merging here (the outbox tests cover it): every title change is its own message, so a stalled
            // client's queue passes the bound and the snapshot path runs.
            $0.limits.streamCoalesceAfterBytes = 1 << 30
            $0.limits.streamSocketSendBufferBytes = 4 << 10
        }
        let (sid, pid) = try await Self.createSession(fixture, html: "<title>start</title>", extra: [])
        // A client that reads nothing (a 4 KiB receive window) and one that keeps reading.
        let stalled = try await fixture.stream(receiveBufferBytes: 4096)
        let reader = try await fixture.stream()
        _ = try await reader.receive(until: { $0.updates("title", to: "start", page: pid) || Self.title(of: pid, after: [$0]) == "start" })

        // Thousands of title changes.
        // In chunks of 250, each well inside the engine's time limit for one evaluation.
        for chunk in 0..<8 {
            let script = """
                const long = 'x'.repeat(1000);
                for (let i = \(chunk * 250); i < \((chunk + 1) * 250); i++) {
                  document.title = 'title ' + i + ' ' + long;
                  await new Promise(r => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); });
                }
                if (\(chunk) === 7) document.title = 'done';
                return true;
                """
            let evaluated = try await Self.evaluate(fixture, sid, pid, script)
            #expect(evaluated.status == 200, "\(evaluated.text)")
        }
        // The reading client keeps receiving, up to the last change.
        // (With a bound this small, even a reading client may fall behind under load and get a snapshot instead;
        // either way it ends up with the last title.)
        _ = try await reader.receive(collectingUntil: { Self.title(of: pid, after: $0) == "done" }, timeout: 120)

        // The server never held more than the bound (plus the one message that crossed it) for any client.
        let metrics = try await fixture.http.get("/metrics").text
        let maxQueued = try #require(PrometheusSample.value(of: "pagehost_stream_client_queue_max_bytes", in: metrics))
        #expect(maxQueued <= Double(bound + 4096))
        #expect(maxQueued > 0)
        #expect((PrometheusSample.value(of: "pagehost_events_dropped_total", in: metrics) ?? 0) > 0)

        // Once it reads again the stalled client gets a fresh snapshot, and what it ends with is the state now.
        let seen = try await stalled.receive(collectingUntil: { seen in
            seen.dropFirst().contains { $0.type == "snapshot" } && Self.title(of: pid, after: seen) == "done"
        }, timeout: 60)
        let snapshot = try #require(seen.dropFirst().last { $0.type == "snapshot" })
        let state = try JSONParser.parse(try await fixture.http.get("/api/sessions/\(sid)").body)
        let snapshotSession = try #require(snapshot["sessions"]?.arrayValue?.first { $0["id"]?.stringValue == sid })
        // Everything but the live title (which later events carry) matches the state as the API shows it now.
        #expect(snapshotSession["order"] == state["order"])
        #expect(Self.title(of: pid, after: seen) == state["pages"]?.arrayValue?.first?["title"]?.stringValue)

        await stalled.close()
        await reader.close()
        await fixture.stop()
    }

    /// A page's title as a client that applies snapshots and updates in order would have it.
    static func title(of page: String, after messages: [JSONValue]) -> String? {
        var title: String?
        for message in messages {
            if message.type == "snapshot" {
                title = message["sessions"]?.arrayValue?.flatMap { $0["pages"]?.arrayValue ?? [] }
                    .first { $0["id"]?.stringValue == page }?["title"]?.stringValue
            } else if message.isEvent("page.updated", page: page), let changed = message["changes"]?["title"]?.stringValue {
                title = changed
            }
        }
        return title
    }
}
