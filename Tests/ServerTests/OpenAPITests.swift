import Foundation
import PagehostCore
import Testing

/// docs/openapi.json against the live server: every route it lists is exercised here and answers the success
/// status (and shape) it documents, and the file is what `/api/openapi.json` serves.
@Suite("OpenAPI description")
struct OpenAPITests {
    static func spec() throws -> JSONValue {
        let data = try #require(FileManager.default.contents(atPath: ServerFixture.root + "/docs/openapi.json"))
        return try JSONParser.parse([UInt8](data))
    }

    /// Checks that `value` has the required members of the schema `ref` names (one level deep).
    static func conforms(_ value: JSONValue, to schema: JSONValue, in spec: JSONValue) -> Bool {
        var schema = schema
        if let ref = schema["$ref"]?.stringValue {
            guard let resolved = spec["components"]?["schemas"]?[String(ref.split(separator: "/").last!)] else { return false }
            schema = resolved
        }
        switch schema["type"]?.stringValue {
        case "array":
            guard let items = value.arrayValue, let itemSchema = schema["items"] else { return false }
            return items.allSatisfy { conforms($0, to: itemSchema, in: spec) }
        case "object":
            guard value.objectValue != nil else { return false }
            let required = schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
            return required.allSatisfy { value[$0] != nil }
        default:
            return true
        }
    }

    @Test func everyDocumentedRouteAnswersAsDescribed() async throws {
        let spec = try Self.spec()
        let fixture = try await startServer()
        let http = fixture.http
        let stream = try await fixture.stream()
        _ = try await stream.receiveJSON()

        // A session with a popup and one whose page waits on a prompt, to have every kind of id.
        let a = try JSONParser.parse(try await http.post("/api/sessions", json: JSONValue.object([("html", .string(TestPages.opener(popups: 1)))]).serialized).body)
        let sid = try #require(a["id"]?.stringValue)
        let mainID = try #require(a["pages"]?.arrayValue?.first?["id"]?.stringValue)
        let popupEvent = try await stream.receive(until: { $0.isEvent("page.opened") && $0["page"]?["role"] == "popup" }).last
        let popupID = try #require(popupEvent?["pageId"]?.stringValue)
        let b = try JSONParser.parse(try await http.post("/api/sessions", json: #"{"html":"<script>setTimeout(() => prompt('q', 'd'), 10)</script>"}"#).body)
        let promptSession = try #require(b["id"]?.stringValue)
        let dialogID = try #require(try await stream.receive(until: { $0.type == "dialog.opened" }).last?["dialog"]?["id"]?.stringValue)
        // The page toolbox: a page to find, scroll and click in; one with a page to go back to, one with a page to
        // go forward to.
        let toolPage = "<title>t</title><p>lake Lake</p><div style='height:3000px'></div><button id=b style='width:80px;height:30px'>b</button>"
        let (toolSession, toolPageID) = try await fixture.createSession(JSONValue.object([("html", .string(toolPage)), ("baseURL", "http://127.0.0.1/t")]).serialized)
        let tool = "/api/sessions/\(toolSession)/pages/\(toolPageID)"
        try await fixture.waitForLoad(toolSession, toolPageID, url: "http://127.0.0.1/t")
        var history: [String] = []
        for goBack in [false, true] {
            let (hs, hp) = try await fixture.createSession(#"{"url":"data:text/html,<title>1</title>"}"#)
            try await fixture.waitForLoad(hs, hp, url: "data:text/html,<title>1</title>")
            #expect(try await http.post("/api/sessions/\(hs)/pages/\(hp)/navigate", json: #"{"url":"data:text/html,<title>2</title>"}"#).status == 200)
            try await fixture.waitForPage(hs, hp, "a page to go back to") { $0["canGoBack"] == true && $0["navigation"]?["event"] == "finished" }
            if goBack {
                let before = try await fixture.navigationID(hs, hp)
                #expect(try await http.post("/api/sessions/\(hs)/pages/\(hp)/back", json: "").status == 204)
                try await fixture.waitForPage(hs, hp, "a page to go forward to") {
                    $0["canGoForward"] == true && $0["navigation"]?["event"] == "finished" && ($0["navigation"]?["id"]?.intValue ?? 0) > before
                }
            }
            history.append("/api/sessions/\(hs)/pages/\(hp)")
        }

        struct Call {
            let method: String
            let path: String
            var body: String = ""
            var token = true
        }
        let calls: [String: Call] = [
            "get /api/health": Call(method: "GET", path: "/api/health", token: false),
            "get /api/sessions": Call(method: "GET", path: "/api/sessions"),
            "post /api/sessions": Call(method: "POST", path: "/api/sessions", body: #"{"url":"about:blank","label":"x","popupMode":"tabbed","dialogPolicy":"dismiss","popupPolicy":"block","userAgentSuffix":"GOOGLE_PAY_SUPPORTED","viewport":{"width":800,"height":600}}"#),
            "get /api/sessions/{sessionId}": Call(method: "GET", path: "/api/sessions/\(sid)"),
            "get /api/sessions/{sessionId}/events": Call(method: "GET", path: "/api/sessions/\(sid)/events"),
            "get /api/whoami": Call(method: "GET", path: "/api/whoami"),
            "delete /api/sessions/{sessionId}": Call(method: "DELETE", path: "/api/sessions/\(promptSession)"),
            "post /api/sessions/{sessionId}/pages/{pageId}/close": Call(method: "POST", path: "/api/sessions/\(sid)/pages/\(popupID)/close"),
            "post /api/sessions/{sessionId}/pages/{pageId}/navigate": Call(method: "POST", path: "/api/sessions/\(sid)/pages/\(mainID)/navigate", body: #"{"html":"<title>again</title>"}"#),
            "post /api/sessions/{sessionId}/pages/{pageId}/evaluate": Call(method: "POST", path: "/api/sessions/\(sid)/pages/\(mainID)/evaluate", body: #"{"script":"return a + b","arguments":{"a":1,"b":2}}"#),
            "get /api/sessions/{sessionId}/pages/{pageId}/screenshot": Call(method: "GET", path: "/api/sessions/\(sid)/pages/\(mainID)/screenshot"),
            "post /api/sessions/{sessionId}/dialogs/{dialogId}": Call(method: "POST", path: "/api/sessions/\(promptSession)/dialogs/\(dialogID)", body: #"{"accept":true,"text":"t"}"#),
            "post /api/sessions/{sessionId}/pages/{pageId}/back": Call(method: "POST", path: history[0] + "/back"),
            "post /api/sessions/{sessionId}/pages/{pageId}/forward": Call(method: "POST", path: history[1] + "/forward"),
            "post /api/sessions/{sessionId}/pages/{pageId}/reload": Call(method: "POST", path: tool + "/reload"),
            "post /api/sessions/{sessionId}/pages/{pageId}/stop": Call(method: "POST", path: tool + "/stop"),
            "post /api/sessions/{sessionId}/pages/{pageId}/find": Call(method: "POST", path: tool + "/find", body: #"{"text":"lake","caseInsensitive":true}"#),
            "post /api/sessions/{sessionId}/pages/{pageId}/find/next": Call(method: "POST", path: tool + "/find/next"),
            "post /api/sessions/{sessionId}/pages/{pageId}/find/previous": Call(method: "POST", path: tool + "/find/previous"),
            "delete /api/sessions/{sessionId}/pages/{pageId}/find": Call(method: "DELETE", path: tool + "/find"),
            "post /api/sessions/{sessionId}/pages/{pageId}/scroll": Call(method: "POST", path: tool + "/scroll", body: #"{"x":0,"y":100}"#),
            "post /api/sessions/{sessionId}/pages/{pageId}/click": Call(method: "POST", path: tool + "/click", body: ##"{"selector":"#b"}"##),
            "get /api/openapi.json": Call(method: "GET", path: "/api/openapi.json"),
            "get /metrics": Call(method: "GET", path: "/metrics"),
            "get /": Call(method: "GET", path: "/"),
            "get /demo/": Call(method: "GET", path: "/demo/", token: false),
        ]
        // The dialog is answered before its session is deleted.
        let order = calls.keys.sorted { a, b in
            a.hasPrefix("delete") == b.hasPrefix("delete") ? a < b : !a.hasPrefix("delete")
        }
        var documented = Set<String>()
        for (path, item) in spec["paths"]?.objectValue ?? [] {
            for (method, _) in item.objectValue ?? [] where method != "parameters" { documented.insert("\(method) \(path)") }
        }
        // Every documented route is tested; the stream is checked with a real WebSocket below.
        #expect(documented.subtracting(["get /api/stream"]) == Set(calls.keys))

        for key in order {
            let call = calls[key]!
            let parts = key.split(separator: " ", maxSplits: 1)
            let operation = try #require(spec["paths"]?[String(parts[1])]?[String(parts[0])])
            let success = try #require(operation["responses"]?.objectValue?.first { $0.0.hasPrefix("2") })
            var client = http
            if !call.token { client.token = nil }
            let response = try await client.request(call.method, call.path, body: Array(call.body.utf8))
            #expect(response.status == Int(success.0), "\(key): \(response.status) \(response.text.prefix(300))")
            if let media = success.1["content"]?.objectValue?.first {
                #expect(response.headers["content-type"]?.hasPrefix(media.0) == true, "\(key): \(response.headers["content-type"] ?? "")")
                if media.0 == "application/json", let schema = media.1["schema"] {
                    let json = try JSONParser.parse(response.body)
                    #expect(Self.conforms(json, to: schema, in: spec), "\(key): \(response.text.prefix(300))")
                }
                if media.0 == "image/png" { #expect(response.body.starts(with: [0x89, 0x50, 0x4E, 0x47])) }
            }
            if key == "get /api/openapi.json" { #expect(try JSONParser.parse(response.body) == spec) }
            if key == "get /" {
                #expect(response.headers["content-security-policy"]?.contains("script-src 'self'") == true)
                #expect(response.headers["content-security-policy"]?.contains("unsafe-inline") == false)
                #expect(response.headers["x-content-type-options"] == "nosniff")
            }
        }
        // The stream: 101 with the subprotocol.
        #expect(stream.headers["sec-websocket-protocol"] == "pagehost.v1")
        // The dashboard URL: ?token= sets the cookie and redirects to the page without it.
        var anonymous = http
        anonymous.token = nil
        let redirect = try await anonymous.get("/?token=\(fixture.token)")
        #expect(redirect.status == 303)
        #expect(redirect.headers["location"] == "/")
        #expect(redirect.headers["set-cookie"]?.contains("pagehost_token=\(fixture.token)") == true)
        #expect(redirect.headers["set-cookie"]?.contains("HttpOnly") == true)
        #expect(redirect.headers["set-cookie"]?.contains("SameSite=Strict") == true)
        await stream.close()
        await fixture.stop()
    }
}
