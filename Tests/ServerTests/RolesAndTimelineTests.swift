import Foundation
import MainLoop
import PagehostCore
@testable import Server
import Testing

/// Issue 7's server side: viewer and operator tokens, session timelines over HTTP and the stream, and
/// `isWatched` (a session a stream client watches is never idle). Real servers on 127.0.0.1 over the FakeEngine.
@Suite("Roles, timelines and watched sessions")
struct RolesAndTimelineTests {
    static let viewerToken = "viewer-\(UUID().uuidString)"

    static func viewerServer(_ adjust: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in }) async throws -> ServerFixture {
        try await startServer(.fake) {
            $0.viewerToken = viewerToken
            adjust(&$0)
        }
    }

    /// The sessions, their pages and dialogs: what a command could change.
    static func state(_ fixture: ServerFixture) async throws -> String {
        let sessions = try JSONParser.parse(try await fixture.http.get("/api/sessions").body)
        return JSONValue.array((sessions.arrayValue ?? []).map { session in
            .object([("id", session["id"] ?? .null), ("order", session["order"] ?? .null),
                     ("pages", .array((session["pages"]?.arrayValue ?? []).map { .object([("id", $0["id"] ?? .null), ("url", $0["url"] ?? .null), ("dialog", $0["dialog"] ?? .null)]) }))])
        }).serialized
    }

    @Test func aViewerReadsEverythingAndChangesNothing() async throws {
        let fixture = try await Self.viewerServer()
        defer { Task { @LoopActor in fixture.stop() } }
        let operatorHTTP = fixture.http
        var viewer = fixture.http
        viewer.token = Self.viewerToken
        let created = try JSONParser.parse(try await operatorHTTP.post("/api/sessions", json: #"{"html":"<title>a</title>"}"#).body)
        let sid = try #require(created["id"]?.stringValue)
        let pid = try #require(created["pages"]?.arrayValue?.first?["id"]?.stringValue)
        // A popup and a waiting dialog, so closing a page and answering a dialog have something to refuse.
        let (popupID, dialogID) = await Self.openPopupAndDialog(fixture, sid: sid, opener: pid)
        let before = try await Self.state(fixture)

        // whoami
        #expect(try JSONParser.parse(try await viewer.get("/api/whoami").body) == ["role": "viewer"])
        #expect(try JSONParser.parse(try await operatorHTTP.get("/api/whoami").body) == ["role": "operator"])
        // Reads.
        for path in ["/api/sessions", "/api/sessions/\(sid)", "/api/sessions/\(sid)/events", "/api/health",
                     "/api/sessions/\(sid)/pages/\(pid)/screenshot", "/metrics", "/api/openapi.json"] {
            let response = try await viewer.get(path)
            #expect(response.status == 200, "\(path): \(response.status) \(response.text)")
        }
        // Every command: 403 forbidden, naming the operator token.
        let commands: [(String, String, String)] = [
            ("POST", "/api/sessions", #"{"html":"x"}"#),
            ("DELETE", "/api/sessions/\(sid)", ""),
            ("POST", "/api/sessions/\(sid)/pages/\(popupID)/close", ""),
            ("POST", "/api/sessions/\(sid)/pages/\(pid)/navigate", #"{"url":"about:blank"}"#),
            ("POST", "/api/sessions/\(sid)/pages/\(pid)/evaluate", #"{"script":"return 1"}"#),
            ("POST", "/api/sessions/\(sid)/dialogs/\(dialogID)", #"{"accept":true}"#),
        ]
        for (method, path, body) in commands {
            let response = try await viewer.request(method, path, headers: body.isEmpty ? [:] : ["Content-Type": "application/json"],
                                                    body: Array(body.utf8))
            #expect(response.status == 403, "\(method) \(path): \(response.status) \(response.text)")
            let error = try JSONParser.parse(response.body)["error"]
            #expect(error?["code"] == "forbidden")
            #expect(error?["message"]?.stringValue?.contains("operator token") == true)
        }
        #expect(try await Self.state(fixture) == before)

        // The stream: a viewer watches, reads over the socket, and its commands are refused.
        let stream = try await WebSocketTestClient.connect(port: fixture.port, path: "/api/stream", token: Self.viewerToken)
        #expect(try await stream.receiveJSON().type == "snapshot")
        try await stream.send(#"{"id":1,"op":"closeSession","sessionId":"\#(sid)"}"#)
        try await stream.send(#"{"id":2,"op":"answerDialog","sessionId":"\#(sid)","dialogId":"\#(dialogID)","accept":true}"#)
        try await stream.send(#"{"id":3,"op":"closePage","sessionId":"\#(sid)","pageId":"\#(popupID)"}"#)
        try await stream.send(#"{"id":4,"op":"listSessions"}"#)
        try await stream.send(#"{"id":5,"op":"getEvents","sessionId":"\#(sid)"}"#)
        let answers = try await stream.receive(until: { $0["id"] == 5 })
        let byID = Dictionary(answers.compactMap { m in m["id"]?.intValue.map { ($0, m) } }, uniquingKeysWith: { a, _ in a })
        for id in 1...3 {
            #expect(byID[id]?.type == "error" && byID[id]?["error"]?["code"] == "forbidden", "\(byID[id]?.serialized ?? "none")")
        }
        #expect(byID[4]?.type == "result" && byID[4]?["result"]?.arrayValue?.count == 1)
        #expect(byID[5]?.type == "result" && byID[5]?["result"]?.arrayValue?.first?.type == "session.created")
        #expect(try await Self.state(fixture) == before)

        // The operator may do all of it.
        let operatorStream = try await fixture.stream()
        _ = try await operatorStream.receiveJSON()
        try await operatorStream.send(#"{"id":9,"op":"closePage","sessionId":"\#(sid)","pageId":"\#(popupID)"}"#)
        let done = try await operatorStream.receive(until: { $0["id"] == 9 })
        #expect(done.last?.type == "result")
        #expect(try await operatorHTTP.delete("/api/sessions/\(sid)").status == 204)
        await stream.close()
        await operatorStream.close()
    }

    /// Opens a popup of `opener` and a waiting dialog on it through the FakeEngine; returns their ids.
    @LoopActor
    static func openPopupAndDialog(_ fixture: ServerFixture, sid: String, opener: String) async -> (String, String) {
        let fake = fixture.fake!
        let popup = fake.openPopup(from: PageID(opener), url: "about:blank")
        let dialog = fake.events?.dialogRequested(on: PageID(opener), kind: .alert, message: "hi", defaultText: nil)
        return (popup?.rawValue ?? "", dialog?.rawValue ?? "")
    }

    @Test func tokensAreCheckedInConstantTimeAndNameTheirRole() {
        let auth = TokenAuthenticator(token: "op-secret", viewerToken: "view-secret")
        #expect(auth.role(of: "op-secret") == .operator)
        #expect(auth.role(of: "view-secret") == .viewer)
        #expect(auth.role(of: "view-secreT") == nil)
        #expect(auth.role(of: "") == nil)
        #expect(auth.role(of: "op-secret ") == nil)
        #expect(auth.credential(HTTPRequest(method: .get, path: "/", headers: ["authorization": "Bearer view-secret"]))
                == .init(role: .viewer, source: .header))
        #expect(auth.credential(HTTPRequest(method: .get, path: "/", headers: ["cookie": "pagehost_token=op-secret"]))
                == .init(role: .operator, source: .cookie))
        // A wrong header does not hide a right cookie.
        #expect(auth.credential(HTTPRequest(method: .get, path: "/", headers: ["authorization": "Bearer nope", "cookie": "pagehost_token=view-secret"]))?.role == .viewer)
        #expect(TokenAuthenticator(token: "op").role(of: "") == nil)
        #expect(Role.viewer.mayRequest(.get) && !Role.viewer.mayRequest(.post) && !Role.viewer.mayRequest(.delete))
        #expect(Role.viewer.mayRun(op: "getEvents") && !Role.viewer.mayRun(op: "evaluate") && !Role.viewer.mayRun(op: "someNewOp"))
    }

    @Test func theViewerTokenIsConfiguredByFileFlagOrEnvironment() throws {
        var config = ServerConfiguration()
        try config.apply(try JSONParser.parse(#"{"tokens":{"operator":"op1","viewer":"v1"}}"#))
        #expect(config.token == "op1" && config.viewerToken == "v1")
        var both = ServerConfiguration()
        try both.apply(try JSONParser.parse(#"{"token":"op1","tokens":{"viewer":"v1"}}"#))
        #expect(both.token == "op1" && both.viewerToken == "v1")
        for bad in [#"{"tokens":{"viewer":"same","operator":"same"}}"#, #"{"token":"a","tokens":{"operator":"b"}}"#,
                    #"{"tokens":{"viewer":"has space"}}"#, #"{"tokens":{"reader":"x"}}"#, #"{"tokens":"x"}"#] {
            var c = ServerConfiguration()
            #expect(throws: PagehostError.self, "\(bad)") { try c.apply(try JSONParser.parse(bad)) }
        }
        let fromFlag = try ServeOptions.configuration(arguments: ["--token", "op", "--viewer-token", "v"], environment: [:], defaultConfigFile: "/nonexistent")
        #expect(fromFlag.viewerToken == "v")
        let fromEnv = try ServeOptions.configuration(arguments: [], environment: ["PAGEHOST_VIEWER_TOKEN": "v2"], defaultConfigFile: "/nonexistent")
        #expect(fromEnv.viewerToken == "v2")
        #expect(throws: ServeOptions.Failure.self) {
            try ServeOptions.configuration(arguments: ["--token", "x", "--viewer-token", "x"], environment: [:], defaultConfigFile: "/nonexistent")
        }
    }

    @Test func aTimelineIsReadForOpenAndClosedSessionsAndPurgedOnes404() async throws {
        MainLoop.shared.start()
        // Its own host: keeps one closed session, so the second close purges the first.
        let (host, server) = try await Self.serverWithHostLimits { $0.closedSessionLimit = 1 }
        defer { Task { @LoopActor in server.stop(); host.closeAllSessions() } }
        let http = HTTPTestClient(port: await server.port ?? 0, token: await server.token)
        let first = try JSONParser.parse(try await http.post("/api/sessions", json: #"{"html":"<title>a</title>"}"#).body)
        let sid = try #require(first["id"]?.stringValue)
        let open = try JSONParser.parse(try await http.get("/api/sessions/\(sid)/events").body)
        let openEvents = try #require(open.arrayValue)
        #expect(openEvents.first?.type == "session.created")
        #expect(openEvents.allSatisfy { $0["sessionId"]?.stringValue == sid })
        #expect(openEvents.compactMap(\.seq) == openEvents.compactMap(\.seq).sorted())

        #expect(try await http.delete("/api/sessions/\(sid)").status == 204)
        let closed = try #require(try JSONParser.parse(try await http.get("/api/sessions/\(sid)/events").body).arrayValue)
        #expect(closed.first?.type == "session.created")
        #expect(closed.last?.type == "session.closed" && closed.last?["reason"] == "command")
        #expect(Array(closed.prefix(openEvents.count)) == openEvents)
        #expect(try await http.get("/api/sessions/\(sid)").status == 404)

        // The socket command says the same.
        let stream = try await WebSocketTestClient.connect(port: await server.port ?? 0, path: "/api/stream", token: await server.token)
        _ = try await stream.receiveJSON()
        try await stream.send(#"{"id":"t","op":"getEvents","sessionId":"\#(sid)"}"#)
        let answer = try await stream.receive(until: { $0["id"] == "t" }).last
        #expect(answer?["result"] == .array(closed))

        // A second closed session pushes the first out of the archive: 404, as for a session never seen.
        let second = try JSONParser.parse(try await http.post("/api/sessions", json: #"{"html":"b"}"#).body)
        let sid2 = try #require(second["id"]?.stringValue)
        #expect(try await http.delete("/api/sessions/\(sid2)").status == 204)
        for gone in [sid, "s999999"] {
            let response = try await http.get("/api/sessions/\(gone)/events")
            #expect(response.status == 404, "\(response.text)")
            #expect(try JSONParser.parse(response.body)["error"]?["code"] == "not_found")
        }
        #expect(try await http.get("/api/sessions/\(sid2)/events").status == 200)
        #expect(try await http.get("/api/sessions/nope/events").status == 400)
        #expect(try await http.post("/api/sessions/\(sid2)/events", json: "{}").status == 405)
        try await stream.send(#"{"id":"u","op":"getEvents","sessionId":"\#(sid)"}"#)
        let refused = try await stream.receive(until: { $0["id"] == "u" }).last
        #expect(refused?.type == "error" && refused?["error"]?["code"] == "not_found")
        await stream.close()
    }

    /// A server over the FakeEngine whose host has the given limits.
    @LoopActor
    static func serverWithHostLimits(_ adjust: (inout HostLimits) -> Void) throws -> (SessionHost, PagehostServer) {
        let configuration = ServerFixture.configuration()
        var limits = configuration.hostLimits
        adjust(&limits)
        let host = SessionHost(engine: FakeEngine(), limits: limits)
        let server = PagehostServer(host: host, configuration: configuration)
        try server.start()
        return (host, server)
    }

    /// Creates a FakeEngine session with a 1 s idle timeout straight on the host.
    @LoopActor
    static func idleSession(_ fixture: ServerFixture) throws -> SessionID {
        var options = SessionOptions()
        options.idleTimeout = .seconds(1)
        return try fixture.host.createSession(options, loading: .html("<title>idle</title>", baseURL: nil)).id
    }

    @LoopActor static func isOpen(_ fixture: ServerFixture, _ sid: SessionID) -> Bool {
        (try? fixture.host.snapshot(of: sid)) != nil
    }

    /// Waits until `sid` is closed; returns the seconds it took, or nil past `timeout`.
    static func waitClosed(_ fixture: ServerFixture, _ sid: SessionID, timeout: TimeInterval = 30) async throws -> TimeInterval? {
        let start = Date()
        while Date().timeIntervalSince(start) < timeout {
            if !(await isOpen(fixture, sid)) { return Date().timeIntervalSince(start) }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    @Test func aWatchedSessionIsNeverIdleAndReapedOnceNobodyWatches() async throws {
        let fixture = try await startServer(.fake)
        defer { Task { @LoopActor in fixture.stop() } }
        // A client filtered on the session watches it; one filtered on another session does not.
        let watched = try await Self.idleSession(fixture)
        let unwatched = try await Self.idleSession(fixture)
        let watcher = try await fixture.stream("?session=\(watched.rawValue)")
        let other = try await fixture.stream("?session=s999999")
        #expect(try await watcher.receiveJSON().type == "snapshot")
        // The unwatched one is reaped by its idle timeout...
        #expect(try await Self.waitClosed(fixture, unwatched) != nil)
        let timeline = try JSONParser.parse(try await fixture.http.get("/api/sessions/\(unwatched.rawValue)/events").body)
        #expect(timeline.arrayValue?.last?["reason"] == "idleTimeout")
        // ...while the watched one outlives several of its timeouts.
        try await Task.sleep(for: .seconds(3))
        #expect(await Self.isOpen(fixture, watched))
        // Once its watcher leaves, it is reaped.
        await watcher.close()
        #expect(try await Self.waitClosed(fixture, watched) != nil)
        await other.close()

        // An unfiltered client watches every session.
        let all = try await fixture.stream()
        _ = try await all.receiveJSON()
        let third = try await Self.idleSession(fixture)
        try await Task.sleep(for: .seconds(3))
        #expect(await Self.isOpen(fixture, third))
        await all.close()
        #expect(try await Self.waitClosed(fixture, third) != nil)
    }
}
