import PagehostCore
import Testing
@testable import Server

/// The outbox's rules on their own: order, coalescing only when behind, snapshot on overflow, answers kept.
@Suite("Stream outbox")
struct StreamOutboxTests {
    static let sid = SessionID("s1")

    static func update(_ seq: UInt64, _ page: String, _ changes: [(String, JSONValue)]) -> Event {
        Event(seq: seq, payload: .pageUpdated(sid, PageID(page), changes: changes))
    }

    static func drain(_ outbox: inout StreamOutbox) throws -> [JSONValue] {
        var out: [JSONValue] = []
        while let next = outbox.next() {
            switch next {
            case .message(let bytes): out.append(try JSONParser.parse(bytes))
            case .snapshot: out.append(["type": "snapshot"])
            }
        }
        return out
    }

    @Test func aClientThatKeepsUpGetsEveryEventInOrder() throws {
        var outbox = StreamOutbox(maxBytes: 1 << 20, coalesceAfterBytes: 64 << 10)
        for seq in 1...5 { #expect(outbox.enqueue(Self.update(UInt64(seq), "p1", [("title", .string("t\(seq)"))])) == .queued) }
        let messages = try Self.drain(&outbox)
        #expect(messages.compactMap(\.seq) == [1, 2, 3, 4, 5])
        #expect(messages.allSatisfy { $0["coalesced"] == nil })
        #expect(outbox.bytes == 0)
    }

    @Test func updatesToOnePageMergeOnceTheClientIsBehind() throws {
        var outbox = StreamOutbox(maxBytes: 1 << 20, coalesceAfterBytes: 0)
        _ = outbox.enqueue(Self.update(1, "p1", [("title", "a"), ("isLoading", true)]))
        _ = outbox.enqueue(Event(seq: 2, payload: .sessionClosed(SessionID("s9"))))
        #expect(outbox.enqueue(Self.update(3, "p1", [("title", "b")])) == .coalesced)
        _ = outbox.enqueue(Self.update(4, "p2", [("title", "other")]))
        #expect(outbox.enqueue(Self.update(5, "p1", [("estimatedProgress", 1)])) == .coalesced)
        let messages = try Self.drain(&outbox)
        // The merged update moves to the newest position, keeps seq order, and says how many it folded.
        #expect(messages.compactMap(\.seq) == [2, 4, 5])
        let merged = try #require(messages.last)
        #expect(merged["changes"] == ["title": "b", "isLoading": true, "estimatedProgress": 1])
        #expect(merged["coalesced"] == 2)
    }

    @Test func pastTheBoundEventsGiveWayToOneSnapshotAndAnswersStay() throws {
        var outbox = StreamOutbox(maxBytes: 2000, coalesceAfterBytes: 1 << 20)
        #expect(outbox.enqueueControl(Array(#"{"type":"result","id":1,"result":null}"#.utf8)) == .queued)
        var outcome = StreamOutbox.Outcome.queued
        var seq: UInt64 = 0
        while outcome != .overflowed {
            seq += 1
            outcome = outbox.enqueue(Event(seq: seq, payload: .sessionClosed(SessionID("s\(seq)"))))
        }
        #expect(outbox.bytes <= 2000)
        // While the snapshot waits, new events are not kept: the snapshot will show them.
        #expect(outbox.enqueue(Event(seq: seq + 1, payload: .sessionClosed(SessionID("s0")))) == .skipped)
        #expect(outbox.droppedEvents == Int(seq) + 1)
        let messages = try Self.drain(&outbox)
        #expect(messages.map(\.type) == ["result", "snapshot"])
        // After the snapshot, events queue again.
        #expect(outbox.enqueue(Self.update(seq + 2, "p1", [("title", "x")])) == .queued)
        #expect(try Self.drain(&outbox).compactMap(\.seq) == [Int(seq) + 2])
    }

    @Test func answersAloneOverTheBoundCloseTheClient() {
        var outbox = StreamOutbox(maxBytes: 100, coalesceAfterBytes: 0)
        var outcome = StreamOutbox.Outcome.queued
        for id in 0..<10 where outcome != .mustClose {
            outcome = outbox.enqueueControl(Array(#"{"type":"result","id":\#(id),"result":null}"#.utf8))
        }
        #expect(outcome == .mustClose)
    }
}

@Suite("Request parsing")
struct RequestParsingTests {
    @Test func tokenComparisonAndSources() {
        let auth = TokenAuthenticator(token: "secret")
        #expect(auth.matches("secret"))
        #expect(!auth.matches("secreT"))
        #expect(!auth.matches("secret1"))
        #expect(!auth.matches(""))
        #expect(auth.authenticate(HTTPRequest(method: .get, path: "/", headers: ["authorization": "Bearer secret"])) == .header)
        #expect(auth.authenticate(HTTPRequest(method: .get, path: "/", query: ["token": "secret"])) == .query)
        #expect(auth.authenticate(HTTPRequest(method: .get, path: "/", headers: ["cookie": "x=1; pagehost_token=secret"])) == .cookie)
        #expect(auth.authenticate(HTTPRequest(method: .get, path: "/", headers: ["cookie": "pagehost_token=nope"])) == nil)
        #expect(TokenAuthenticator.generate().count == 32)
        #expect(TokenAuthenticator.generate() != TokenAuthenticator.generate())
    }

    @Test func routes() throws {
        #expect(try APIRoute.match(.get, "/api/sessions/s12")?.get() == .getSession(SessionID("s12")))
        #expect(try APIRoute.match(.post, "/api/sessions/s1/pages/p2/close")?.get() == .closePage(SessionID("s1"), PageID("p2")))
        #expect(APIRoute.match(.get, "/") == nil)
        if case .failure(.methodNotAllowed(let allowed))? = APIRoute.match(.put, "/api/sessions") {
            #expect(allowed == [.get, .post])
        } else {
            Issue.record("PUT /api/sessions should be 405")
        }
        if case .failure(.badID(let error))? = APIRoute.match(.get, "/api/sessions/s1x") {
            #expect(error.code == .badRequest)
        } else {
            Issue.record("a malformed id should be a bad request")
        }
    }

    @Test func originPolicy() {
        let policy = OriginPolicy(host: "127.0.0.1", port: 8080, extra: ["https://ops.example/"])
        #expect(policy.allows(nil))
        #expect(policy.allows("http://127.0.0.1:8080"))
        #expect(policy.allows("http://localhost:8080"))
        #expect(policy.allows("https://ops.example"))
        #expect(!policy.allows("http://127.0.0.1:8081"))
        #expect(!policy.allows("http://evil.example"))
        #expect(!policy.allows("null"))
    }

    @Test func serveOptionsLayerFlagsOverEnvironmentOverFile() throws {
        let configuration = try ServeOptions.configuration(
            arguments: ["--port", "0", "--no-demo", "--token=abc"],
            environment: ["PAGEHOST_PORT": "9000", "PAGEHOST_HOST": "127.0.0.2", "PAGEHOST_CONFIG": ServerFixture.root + "/config/pagehost.json"])
        #expect(configuration.port == 0)
        #expect(configuration.host == "127.0.0.2")
        #expect(configuration.token == "abc")
        #expect(!configuration.demo)
        #expect(configuration.adminUIDirectory == ServerFixture.root + "/admin-ui")
        #expect(throws: ServeOptions.Failure.self) { try ServeOptions.configuration(arguments: ["--port", "http"], environment: [:]) }
        #expect(throws: ServeOptions.Failure.self) { try ServeOptions.configuration(arguments: ["--bogus"], environment: [:]) }
    }

    @Test func configFileRejectsUnknownKeysByName() throws {
        var configuration = ServerConfiguration()
        do {
            try configuration.apply(["limits": ["sesions": 3]])
            Issue.record("an unknown key was accepted")
        } catch {
            #expect(error.message.contains("limits.sesions"))
        }
    }
}
