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

    @Test func aBodyOnAMethodWithoutOneIsReadAndTheRequestAnsweredOnce() async throws {
        let fixture = try await startServer(.fake)
        let (port, token) = (fixture.port, fixture.token)
        func count405() async throws -> Double {
            let text = try await fixture.http.get("/metrics").text
            return PrometheusSample.value(of: "pagehost_http_requests_total", labels: ["status": "405"], in: text) ?? 0
        }
        let before = try await count405()
        // As the API fuzz sent them, on one kept-alive connection: a body where none belongs, then more requests.
        let responses = try await offPool { () -> [HTTPTestClient.Response] in
            let socket = try TCPSocket(port: port)
            let head = "Host: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nConnection: keep-alive\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
            var responses: [HTTPTestClient.Response] = []
            for line in ["OPTIONS /api/sessions/s1/pages/p1/forward", "GET /api/sessions/s1/pages/p1/forward", "GET /api/health"] {
                try socket.write(Array("\(line) HTTP/1.1\r\n\(head)".utf8))
                responses.append(try HTTPTestClient.readResponse(socket, deadline: Date().addingTimeInterval(30)))
            }
            return responses
        }
        #expect(responses.map(\.status) == [405, 405, 200])
        #expect(try await count405() == before + 2, "each request went to the handler once")
        await fixture.stop()
    }
}
