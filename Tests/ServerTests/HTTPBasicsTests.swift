import Foundation
import PagehostCore
import Testing

@Suite("HTTP basics on a live server (engine double)")
struct HTTPBasicsTests {
    @Test func healthNeedsNoToken() async throws {
        let fixture = try await startServer(.fake)
        var client = fixture.http
        client.token = nil
        let response = try await client.get("/api/health")
        #expect(response.status == 200)
        let json = try JSONParser.parse(response.body)
        #expect(json["status"] == "ok")
        #expect(json["sessions"] == 0)
        await fixture.stop()
    }

    @Test func everythingElseNeedsTheToken() async throws {
        let fixture = try await startServer(.fake)
        var client = fixture.http
        client.token = nil
        for path in ["/api/sessions", "/metrics", "/", "/api/openapi.json"] {
            let response = try await client.get(path)
            #expect(response.status == 401, "\(path)")
        }
        let wrong = try await client.get("/api/sessions", headers: ["Authorization": "Bearer nope"])
        #expect(wrong.status == 401)
        #expect(try await client.get("/api/sessions?token=\(fixture.token)").status == 200)
        #expect(try await client.get("/api/sessions", headers: ["Cookie": "a=b; pagehost_token=\(fixture.token)"]).status == 200)
        await fixture.stop()
    }
}
