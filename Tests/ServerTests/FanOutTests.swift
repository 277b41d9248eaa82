import Foundation
import PagehostCore
import Testing

@Suite("Fan-out with real pages")
struct FanOutTests {
    @Test func manyClientsEachGetEveryEventOnce() async throws {
        let fixture = try await startServer(.webkit) { $0.limits.streamClients = 12 }
        var clients: [WebSocketTestClient] = []
        for _ in 0..<12 { clients.append(try await fixture.stream()) }
        var starts: [Int] = []
        for client in clients { starts.append(try #require(try await client.receiveJSON().seq)) }
        #expect(Set(starts).count == 1)
        let created = try JSONParser.parse(try await fixture.http.post("/api/sessions", json: JSONValue.object([("html", .string(TestPages.opener(popups: 1)))]).serialized).body)
        let sid = try #require(created["id"]?.stringValue)
        #expect(try await fixture.http.delete("/api/sessions/\(sid)").status == 204)
        var streams: [[JSONValue]] = []
        for client in clients {
            streams.append(try await client.receive(until: { $0.type == "session.closed" }, timeout: 30))
        }
        // Identical, gapless, each event once.
        let first = try #require(streams.first)
        #expect(first.compactMap(\.seq) == Array((starts[0] + 1)...(starts[0] + first.count)))
        for other in streams.dropFirst() { #expect(other == first) }
        for client in clients { await client.close() }
        await fixture.stop()
    }
}

@Suite("Session filter with real pages")
struct SessionFilterTests {
    @Test func aFilteredClientSeesOneSessionOnly() async throws {
        let fixture = try await startServer()
        let first = try JSONParser.parse(try await fixture.http.post("/api/sessions", json: #"{"html":"<title>one</title>"}"#).body)
        let firstID = try #require(first["id"]?.stringValue)
        let filtered = try await fixture.stream("?session=s2")
        let snapshot = try await filtered.receiveJSON()
        #expect(snapshot["sessions"] == [])
        let second = try JSONParser.parse(try await fixture.http.post("/api/sessions", json: #"{"html":"<title>two</title>"}"#).body)
        #expect(second["id"] == "s2")
        #expect(try await fixture.http.delete("/api/sessions/\(firstID)").status == 204)
        #expect(try await fixture.http.delete("/api/sessions/s2").status == 204)
        let seen = try await filtered.receive(until: { $0.type == "session.closed" }, timeout: 30)
        #expect(seen.allSatisfy { $0["sessionId"] == "s2" })
        #expect(seen.first?.type == "session.created")
        // A malformed filter is refused at the upgrade.
        do {
            _ = try await fixture.stream("?session=nope")
            Issue.record("a malformed session filter was accepted")
        } catch let refused as WebSocketTestClient.Refused {
            #expect(refused.status == 400)
        }
        await filtered.close()
        await fixture.stop()
    }
}
