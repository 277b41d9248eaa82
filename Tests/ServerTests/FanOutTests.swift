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
