import Foundation
import PagehostCore
import Testing

/// Refusals: each answers the documented status and error, and changes nothing (checked with a GET after).
@Suite("Safety and refusals with real pages")
struct SafetyTests {
    /// The sessions as the API lists them, reduced to what a request could change (sessions, their options,
    /// pages, order, each page's url, title and dialog), to compare before and after a refused request. Live
    /// engine observations (progress, scroll position) may move on their own and are left out.
    static func state(_ fixture: ServerFixture) async throws -> JSONValue {
        let sessions = try JSONParser.parse(try await fixture.http.get("/api/sessions").body)
        return .array((sessions.arrayValue ?? []).map { session in
            .object(["id", "label", "popupMode", "userAgent", "order"].map { ($0, session[$0] ?? .null) } + [
                ("pages", .array((session["pages"]?.arrayValue ?? []).map { page in
                    .object(["id", "role", "openerId", "url", "title", "dialog", "visible"].map { ($0, page[$0] ?? .null) })
                })),
            ])
        })
    }

    /// Creates a session titled "a" and waits until its page has finished loading, so later GETs compare equal
    /// unless something changed it.
    static func settledSession(_ fixture: ServerFixture) async throws -> JSONValue {
        let created = try JSONParser.parse(try await fixture.http.post("/api/sessions", json: #"{"html":"<title>a</title>"}"#).body)
        let sid = try #require(created["id"]?.stringValue)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let session = try JSONParser.parse(try await fixture.http.get("/api/sessions/\(sid)").body)
            let page = session["pages"]?.arrayValue?.first
            if page?["isLoading"] == false, page?["title"] == "a", page?["navigation"]?["event"] == "finished" { return session }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestFailure("session \(sid) did not finish loading")
    }

    /// The sessions now equal `before`; on a difference, both are shown.
    static func expectUnchanged(_ fixture: ServerFixture, _ before: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let after = try await state(fixture)
        #expect(after == before, "before: \(before.serialized)\nafter: \(after.serialized)", sourceLocation: sourceLocation)
    }

    static func expectError(_ response: HTTPTestClient.Response, _ status: Int, _ code: String, naming field: String? = nil,
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(response.status == status, "\(response.text)", sourceLocation: sourceLocation)
        let error = try JSONParser.parse(response.body)["error"]
        #expect(error?["code"]?.stringValue == code, sourceLocation: sourceLocation)
        if let field {
            #expect(error?["message"]?.stringValue?.contains(field) == true, "\(response.text)", sourceLocation: sourceLocation)
        }
    }

    @Test func withoutTheTokenNothingAnswersButHealth() async throws {
        let fixture = try await startServer(.webkit)
        _ = try await Self.settledSession(fixture)
        let before = try await Self.state(fixture)
        var anonymous = fixture.http
        anonymous.token = nil
        try Self.expectError(try await anonymous.get("/api/sessions"), 401, "unauthorized")
        try Self.expectError(try await anonymous.post("/api/sessions", json: #"{"html":"x"}"#), 401, "unauthorized")
        try Self.expectError(try await anonymous.delete("/api/sessions/s1"), 401, "unauthorized")
        try Self.expectError(try await anonymous.get("/api/sessions", headers: ["Authorization": "Bearer \(fixture.token)x"]), 401, "unauthorized")
        #expect(try await anonymous.get("/metrics").status == 401)
        #expect(try await anonymous.get("/api/health").status == 200)
        await #expect(throws: WebSocketTestClient.Refused.self) {
            _ = try await WebSocketTestClient.connect(port: fixture.port, path: "/api/stream", token: nil)
        }
        do {
            _ = try await WebSocketTestClient.connect(port: fixture.port, path: "/api/stream", token: "wrong")
        } catch let refused as WebSocketTestClient.Refused {
            #expect(refused.status == 401)
        }
        try await Self.expectUnchanged(fixture, before)
        await fixture.stop()
    }

    @Test func streamFromAForeignOriginIsRefusedUnlessAllowed() async throws {
        let fixture = try await startServer(.webkit) { $0.allowedOrigins = ["http://dashboard.example:9000"] }
        do {
            _ = try await fixture.stream(origin: "http://evil.example")
            Issue.record("a foreign origin was let in")
        } catch let refused as WebSocketTestClient.Refused {
            #expect(refused.status == 403)
            #expect(refused.body.contains("forbidden"))
        }
        let own = try await fixture.stream(origin: "http://127.0.0.1:\(fixture.port)")
        #expect(try await own.receiveJSON().type == "snapshot")
        let allowed = try await fixture.stream(origin: "http://dashboard.example:9000")
        #expect(try await allowed.receiveJSON().type == "snapshot")
        await own.close()
        await allowed.close()
        await fixture.stop()
    }

    @Test func badInputIs400AndNamesTheField() async throws {
        let fixture = try await startServer(.webkit)
        let created = try await Self.settledSession(fixture)
        let sid = try #require(created["id"]?.stringValue)
        let pid = try #require(created["pages"]?.arrayValue?.first?["id"]?.stringValue)
        let before = try await Self.state(fixture)
        let http = fixture.http
        try Self.expectError(try await http.post("/api/sessions", json: #"{"url": "#), 400, "bad_request", naming: "JSON")
        try Self.expectError(try await http.post("/api/sessions", json: #"{"url":"http://a.example","popupMode":3}"#), 400, "bad_request", naming: "body.popupMode")
        try Self.expectError(try await http.post("/api/sessions", json: #"{"url":"http://a.example","popupMode":"floating"}"#), 400, "bad_request", naming: "body.popupMode")
        try Self.expectError(try await http.post("/api/sessions", json: #"{"url":"http://a.example","colour":"red"}"#), 400, "bad_request", naming: "body.colour")
        try Self.expectError(try await http.post("/api/sessions", json: #"{"url":"http://a.example","viewport":{"width":5,"height":600}}"#), 400, "bad_request", naming: "body.viewport.width")
        try Self.expectError(try await http.post("/api/sessions", json: #"{"url":"file:///etc/passwd"}"#), 400, "bad_request", naming: "body.url")
        try Self.expectError(try await http.post("/api/sessions", json: #"{"label":"no page"}"#), 400, "bad_request", naming: "body.url")
        try Self.expectError(try await http.post("/api/sessions", json: #"[1,2]"#), 400, "bad_request", naming: "body")
        try Self.expectError(try await http.get("/api/sessions/xyz"), 400, "bad_request", naming: "sessionId")
        try Self.expectError(try await http.post("/api/sessions/\(sid)/pages/p1x/close", json: ""), 400, "bad_request", naming: "pageId")
        try Self.expectError(try await http.post("/api/sessions/\(sid)/pages/\(pid)/evaluate", json: #"{"arguments":{}}"#), 400, "bad_request", naming: "body.script")
        try Self.expectError(try await http.post("/api/sessions/\(sid)/pages/\(pid)/evaluate", json: #"{"script":"return 1","arguments":[1]}"#), 400, "bad_request", naming: "body.arguments")
        try Self.expectError(try await http.post("/api/sessions/\(sid)/pages/\(pid)/navigate", json: #"{"url":"http://a.example","html":"x"}"#), 400, "bad_request", naming: "body.url")
        try Self.expectError(try await http.post("/api/sessions/\(sid)/dialogs/d1", json: #"{"accept":"yes"}"#), 400, "bad_request", naming: "body.accept")
        try await Self.expectUnchanged(fixture, before)

        // Over the stream too: an error answer naming the field, and no change.
        let stream = try await fixture.stream()
        _ = try await stream.receiveJSON()
        try await stream.send(#"{"id":1,"op":"closePage","sessionId":"\#(sid)","pageId":"\#(pid)","force":true}"#)
        let error = try await stream.receive(until: { $0.type == "error" }).last
        #expect(error?["id"] == 1)
        #expect(error?["error"]?["message"]?.stringValue?.contains("command.force") == true)
        try await stream.send("not json")
        let unparsed = try await stream.receive(until: { $0.type == "error" }).last
        #expect(unparsed?["id"] == .null)
        await stream.close()
        try await Self.expectUnchanged(fixture, before)
        await fixture.stop()
    }

    @Test func unknownThingsAre404AndTheMainPageIs409() async throws {
        let fixture = try await startServer(.webkit)
        let created = try await Self.settledSession(fixture)
        let sid = try #require(created["id"]?.stringValue)
        let pid = try #require(created["pages"]?.arrayValue?.first?["id"]?.stringValue)
        let before = try await Self.state(fixture)
        let http = fixture.http
        try Self.expectError(try await http.get("/api/sessions/s999"), 404, "not_found")
        try Self.expectError(try await http.delete("/api/sessions/s999"), 404, "not_found")
        try Self.expectError(try await http.post("/api/sessions/\(sid)/pages/p999/close", json: ""), 404, "not_found")
        try Self.expectError(try await http.post("/api/sessions/s999/pages/\(pid)/close", json: ""), 404, "not_found")
        try Self.expectError(try await http.post("/api/sessions/\(sid)/pages/p999/navigate", json: #"{"url":"http://a.example"}"#), 404, "not_found")
        try Self.expectError(try await http.get("/api/sessions/\(sid)/pages/p999/screenshot"), 404, "not_found")
        try Self.expectError(try await http.post("/api/sessions/\(sid)/dialogs/d999", json: #"{"accept":true}"#), 404, "not_found")
        try Self.expectError(try await http.get("/api/nothing"), 404, "not_found")
        try Self.expectError(try await http.post("/api/sessions/\(sid)/pages/\(pid)/close", json: ""), 409, "conflict")
        try await Self.expectUnchanged(fixture, before)
        await fixture.stop()
    }

    @Test func bodiesOverTheLimitAre413() async throws {
        let fixture = try await startServer(.webkit) { $0.limits.requestBodyBytes = 4096 }
        let before = try await Self.state(fixture)
        let html = String(repeating: "x", count: 5000)
        let big = try await fixture.http.post("/api/sessions", json: JSONValue.object([("html", .string(html))]).serialized)
        try Self.expectError(big, 413, "too_large")
        // A client that only announces a large body is refused before sending it.
        let announced = try await fixture.http.request("POST", "/api/sessions", body: Array("{}".utf8), declaredLength: 1 << 30)
        try Self.expectError(announced, 413, "too_large")
        try await Self.expectUnchanged(fixture, before)
        await fixture.stop()
    }

    @Test func limitsAre429() async throws {
        let fixture = try await startServer(.webkit) {
            $0.limits.sessions = 1
            $0.limits.streamClients = 1
        }
        _ = try await Self.settledSession(fixture)
        let before = try await Self.state(fixture)
        try Self.expectError(try await fixture.http.post("/api/sessions", json: #"{"html":"<title>b</title>"}"#), 429, "limit_exceeded")
        let first = try await fixture.stream()
        _ = try await first.receiveJSON()
        do {
            _ = try await fixture.stream()
            Issue.record("a second stream client was let in")
        } catch let refused as WebSocketTestClient.Refused {
            #expect(refused.status == 429)
        }
        try await Self.expectUnchanged(fixture, before)
        // The slot frees when the first client leaves.
        await first.close()
        try await waitUntil { fixture.server.streamClientCount == 0 }
        let second = try await fixture.stream()
        #expect(try await second.receiveJSON().type == "snapshot")
        await second.close()
        await fixture.stop()
    }
}

/// Polls a condition (on the loop) until it holds, or fails after `timeout`.
func waitUntil(timeout: TimeInterval = 10, _ condition: @escaping @LoopActor () async -> Bool) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    throw TestFailure("condition not met within \(timeout) s")
}
