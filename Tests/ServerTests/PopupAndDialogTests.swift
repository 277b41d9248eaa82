import Foundation
import PagehostCore
import Testing

/// Closing popups and answering dialogs over HTTP and the stream, with real WebKit pages.
@Suite("Popups and dialogs with real pages")
struct PopupAndDialogTests {
    /// Creates a session from `html` and reads the stream until `ready` holds; returns the session and messages.
    static func open(_ html: String, on fixture: ServerFixture, stream: WebSocketTestClient,
                     until ready: @escaping @Sendable ([JSONValue]) -> Bool) async throws -> (JSONValue, [JSONValue]) {
        let created = try await fixture.http.post("/api/sessions", json: JSONValue.object([("html", .string(html))]).serialized)
        #expect(created.status == 201)
        let session = try JSONParser.parse(created.body)
        let messages = try await stream.receive(collectingUntil: ready, timeout: 30)
        return (session, messages)
    }

    static func popups(in messages: [JSONValue]) -> [String] {
        messages.filter { $0.isEvent("page.opened") && $0["page"]?["role"] == "popup" }.compactMap { $0["pageId"]?.stringValue }
    }

    @Test func closePopupOverHTTPAndOverTheSocketButNotTheMainPage() async throws {
        let fixture = try await startServer()
        let stream = try await fixture.stream()
        _ = try await stream.receiveJSON()  // snapshot
        let (session, messages) = try await Self.open(TestPages.opener(popups: 2), on: fixture, stream: stream) {
            Self.popups(in: $0).count == 2
        }
        let sid = try #require(session["id"]?.stringValue)
        let mainID = try #require(session["pages"]?.arrayValue?.first?["id"]?.stringValue)
        let popups = Self.popups(in: messages)

        // Over HTTP: the answer comes once the page is gone (it has no beforeunload, so it agreed at once),
        // after page.closed with reason admin.
        let closed = try await fixture.http.post("/api/sessions/\(sid)/pages/\(popups[0])/close", json: "")
        #expect(closed.status == 200)
        #expect(try JSONParser.parse(closed.body) == .object([("pageId", .string(popups[0])), ("forced", false)]))
        let afterHTTP = try await stream.receive(until: { $0.isEvent("page.closed", page: popups[0]) })
        #expect(afterHTTP.last?["reason"] == "admin")
        #expect(afterHTTP.last?["forced"] == false)

        // Over the socket: the event, then the command's result.
        try await stream.send(JSONValue.object([("id", 7), ("op", "closePage"), ("sessionId", .string(sid)), ("pageId", .string(popups[1]))]))
        let afterCommand = try await stream.receive(until: { $0.type == "result" })
        #expect(afterCommand.last?["id"] == 7)
        #expect(afterCommand.last?["result"]?["forced"] == false)
        let socketClosed = try #require(afterCommand.first { $0.isEvent("page.closed", page: popups[1]) })
        #expect(socketClosed["reason"] == "admin")

        // The main page: 409 over HTTP, an error over the socket, and it stays open.
        let refused = try await fixture.http.post("/api/sessions/\(sid)/pages/\(mainID)/close", json: "")
        #expect(refused.status == 409)
        #expect(try JSONParser.parse(refused.body)["error"]?["code"] == "conflict")
        try await stream.send(JSONValue.object([("id", "x"), ("op", "closePage"), ("sessionId", .string(sid)), ("pageId", .string(mainID))]))
        let error = try await stream.receive(until: { $0.type == "error" }).last
        #expect(error?["id"] == "x")
        #expect(error?["error"]?["code"] == "conflict")
        let after = try JSONParser.parse(try await fixture.http.get("/api/sessions/\(sid)").body)
        #expect(after["pages"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [mainID])

        await stream.close()
        await fixture.stop()
    }

    @Test func promptAnsweredOverHTTPReachesThePageScript() async throws {
        let fixture = try await startServer()
        let stream = try await fixture.stream()
        _ = try await stream.receiveJSON()
        let html = """
            <!doctype html><title>Asking</title><script>
            setTimeout(() => { const answer = prompt('Your name?', 'nobody'); document.title = 'got:' + answer; }, 10);
            </script>
            """
        let (session, messages) = try await Self.open(html, on: fixture, stream: stream) { $0.contains { $0.type == "dialog.opened" } }
        let sid = try #require(session["id"]?.stringValue)
        let opened = try #require(messages.last)
        let dialog = try #require(opened["dialog"])
        #expect(dialog["kind"] == "prompt")
        #expect(dialog["message"] == "Your name?")
        #expect(dialog["defaultText"] == "nobody")
        let did = try #require(dialog["id"]?.stringValue)
        let pageID = try #require(dialog["pageId"]?.stringValue)

        let answered = try await fixture.http.post("/api/sessions/\(sid)/dialogs/\(did)", json: #"{"accept":true,"text":"Ada"}"#)
        #expect(answered.status == 200)
        let after = try await stream.receive(until: { $0.updates("title", to: "got:Ada", page: pageID) })
        let closed = try #require(after.first { $0.type == "dialog.closed" })
        #expect(closed["dialogId"]?.stringValue == did)
        #expect(closed["answer"]?["accept"] == true)
        #expect(closed["answer"]?["text"] == "Ada")
        // Answered once: a second answer is not found, and the page no longer shows a dialog.
        #expect(try await fixture.http.post("/api/sessions/\(sid)/dialogs/\(did)", json: #"{"accept":true}"#).status == 404)
        let page = try JSONParser.parse(try await fixture.http.get("/api/sessions/\(sid)").body)["pages"]?.arrayValue?.first
        #expect(page?["dialog"] == .null)
        #expect(page?["title"] == "got:Ada")

        await stream.close()
        await fixture.stop()
    }
}
