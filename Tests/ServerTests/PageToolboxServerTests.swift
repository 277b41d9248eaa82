import Foundation
import PagehostCore
import Testing

/// The page toolbox (issue 6) through the server, end to end with real WebKit pages: history, find, scroll,
/// click, data loads, navigation rules and a custom scheme named in a config file — over HTTP and the stream,
/// with bad inputs refused without changing anything.
@Suite("Page toolbox through the server")
struct PageToolboxServerTests {
    @Test func customSchemeFromAConfigFileServesAPage() async throws {
        let fixture = try await ServerFixture.toolbox()
        let (sid, main) = try await fixture.createSession(#"{"url":"\#(ToolboxSite.url("index.html"))"}"#)
        try await fixture.waitForLoad(sid, main, url: ToolboxSite.url("index.html"))
        // WebKit notifies the title just after the load finished: wait for it, not only for the load.
        let page = try await fixture.waitForPage(sid, main, "the title") { $0["title"]?.stringValue == "Lakes" }
        #expect(page["title"] == "Lakes")
        // The stylesheet came from the folder too.
        let style = try await fixture.http.post("/api/sessions/\(sid)/pages/\(main)/evaluate",
                                                json: #"{"script":"return getComputedStyle(document.getElementById('h')).color"}"#)
        #expect(try JSONParser.parse(style.body)["result"] == "rgb(0, 128, 0)")
        // Navigating to the scheme works; a scheme nobody configured is refused naming the field.
        let navigated = try await fixture.http.post("/api/sessions/\(sid)/pages/\(main)/navigate", json: #"{"url":"\#(ToolboxSite.url("one.html"))"}"#)
        #expect(navigated.status == 200)
        try await fixture.waitForLoad(sid, main, url: ToolboxSite.url("one.html"))
        expectRefusal(try await fixture.http.post("/api/sessions", json: #"{"url":"nowhere://app/index.html"}"#), 400, naming: "body.url")
        expectRefusal(try await fixture.http.post("/api/sessions/\(sid)/pages/\(main)/navigate", json: #"{"url":"file:///etc/passwd"}"#),
                      400, naming: "body.url")
        await fixture.stop()
    }

    @Test func historyOverHTTPAndTheSocket() async throws {
        let fixture = try await ServerFixture.toolbox()
        let one = ToolboxSite.url("one.html"), two = ToolboxSite.url("two.html")
        let (sid, main) = try await fixture.createSession(#"{"url":"\#(one)"}"#)
        try await fixture.waitForLoad(sid, main, url: one)
        let base = "/api/sessions/\(sid)/pages/\(main)"
        // No history yet: 409 both ways, and the page stays where it is.
        expectRefusal(try await fixture.http.post(base + "/back", json: ""), 409)
        expectRefusal(try await fixture.http.post(base + "/forward", json: ""), 409)
        #expect(try await fixture.page(sid, main)?["url"]?.stringValue == one)

        #expect(try await fixture.http.post(base + "/navigate", json: #"{"url":"\#(two)"}"#).status == 200)
        try await fixture.waitForPage(sid, main, "two with history") {
            $0["url"]?.stringValue == two && $0["canGoBack"] == true && $0["navigation"]?["event"] == "finished"
        }
        // Bad inputs: a body member, a page of another session, an unknown page, a wrong method.
        expectRefusal(try await fixture.http.post(base + "/back", json: #"{"steps":2}"#), 400, naming: "body.steps")
        expectRefusal(try await fixture.http.post("/api/sessions/\(sid)/pages/p999999/back", json: ""), 404)
        expectRefusal(try await fixture.http.post("/api/sessions/s999999/pages/\(main)/back", json: ""), 404)
        expectRefusal(try await fixture.http.post("/api/sessions/\(sid)/pages/x/back", json: ""), 400, naming: "pageId")
        expectRefusal(try await fixture.http.get(base + "/back"), 405)
        #expect(try await fixture.page(sid, main)?["url"]?.stringValue == two)

        // The URL and the history flags change as soon as a history step is asked for: wait for the navigation
        // itself (a new id, finished), as a user waits for the page.
        let beforeBack = try await fixture.navigationID(sid, main)
        #expect(try await fixture.http.post(base + "/back", json: "").status == 204)
        try await fixture.waitForPage(sid, main, "back to one") {
            $0["url"]?.stringValue == one && $0["canGoForward"] == true && $0["navigation"]?["event"] == "finished"
                && ($0["navigation"]?["id"]?.intValue ?? 0) > beforeBack
        }
        // Forward over the socket: a null result.
        let stream = try await fixture.stream()
        _ = try await stream.receiveJSON()
        let beforeForward = try await fixture.navigationID(sid, main)
        try await stream.send(JSONValue.object([("id", 1), ("op", "forward"), ("sessionId", .string(sid)), ("pageId", .string(main))]))
        let forward = try await stream.receive(until: { $0.type == "result" || $0.type == "error" }, timeout: 60).last
        #expect(forward?.type == "result")
        #expect(forward?["result"] == .null)
        try await fixture.waitForPage(sid, main, "forward to two") {
            $0["url"]?.stringValue == two && $0["canGoForward"] == false && $0["navigation"]?["event"] == "finished"
                && ($0["navigation"]?["id"]?.intValue ?? 0) > beforeForward
        }
        // Reload and stop answer 204; reload starts a new navigation.
        let before = try await fixture.navigationID(sid, main)
        #expect(try await fixture.http.post(base + "/reload", json: "{}").status == 204)
        try await fixture.waitForPage(sid, main, "reloaded") {
            ($0["navigation"]?["id"]?.intValue ?? 0) > before && $0["navigation"]?["event"] == "finished"
        }
        #expect(try await fixture.http.post(base + "/stop", json: "").status == 204)
        // Over the socket, a refusal is an error with the code, and an unknown member names itself.
        try await stream.send(JSONValue.object([("id", 2), ("op", "forward"), ("sessionId", .string(sid)), ("pageId", .string(main))]))
        let refused = try await stream.receive(until: { $0.type == "result" || $0.type == "error" }, timeout: 60).last
        #expect(refused?["error"]?["code"] == "conflict")
        try await stream.send(JSONValue.object([("id", 3), ("op", "reload"), ("sessionId", .string(sid)), ("pageId", .string(main)), ("hard", true)]))
        let unknown = try await stream.receive(until: { $0.type == "result" || $0.type == "error" }, timeout: 60).last
        #expect(unknown?["error"]?["message"]?.stringValue?.contains("command.hard") == true)
        await stream.close()
        await fixture.stop()
    }

    static let lakes = "<title>f</title><p>Lake Tahoe, lake Como, LAKE Bled.</p><p>No more lakes here? One: lake.</p>"

    @Test func findOverHTTPAndTheSocket() async throws {
        let fixture = try await startServer()
        let (sid, main) = try await fixture.createSession(JSONValue.object([("html", .string(Self.lakes)), ("baseURL", "http://127.0.0.1/")]).serialized)
        try await fixture.waitForLoad(sid, main, url: "http://127.0.0.1/")
        let base = "/api/sessions/\(sid)/pages/\(main)"
        // Next before any search: 409.
        expectRefusal(try await fixture.http.post(base + "/find/next", json: ""), 409)
        let found = try await fixture.http.post(base + "/find", json: #"{"text":"lake","caseInsensitive":true}"#)
        #expect(found.status == 200)
        #expect(try JSONParser.parse(found.body) == ["matches": 5])
        let exact = try await fixture.http.post(base + "/find", json: #"{"text":"lake"}"#)
        #expect(try JSONParser.parse(exact.body) == ["matches": 3])
        #expect(try JSONParser.parse(try await fixture.http.post(base + "/find/next", json: "").body) == ["matches": 3])
        #expect(try JSONParser.parse(try await fixture.http.post(base + "/find/previous", json: "").body) == ["matches": 3])
        #expect(try await fixture.http.delete(base + "/find").status == 204)
        // Bad inputs.
        expectRefusal(try await fixture.http.post(base + "/find", json: "{}"), 400, naming: "body.text")
        expectRefusal(try await fixture.http.post(base + "/find", json: #"{"text":""}"#), 400, naming: "body.text")
        expectRefusal(try await fixture.http.post(base + "/find", json: #"{"text":"a","caseInsensitive":"yes"}"#), 400, naming: "body.caseInsensitive")
        expectRefusal(try await fixture.http.post(base + "/find", json: #"{"text":"a","regex":true}"#), 400, naming: "body.regex")
        expectRefusal(try await fixture.http.post(base + "/find", json: "[1]"), 400, naming: "body")
        expectRefusal(try await fixture.http.post(base + "/find/next", json: #"{"text":"a"}"#), 400, naming: "body.text")
        expectRefusal(try await fixture.http.post(base + "/find/sideways", json: ""), 404)
        expectRefusal(try await fixture.http.get(base + "/find"), 405)
        // Over the socket.
        let stream = try await fixture.stream()
        _ = try await stream.receiveJSON()
        try await stream.send(JSONValue.object([("id", "f"), ("op", "find"), ("sessionId", .string(sid)), ("pageId", .string(main)),
                                                ("text", "LAKE"), ("caseInsensitive", false)]))
        let answer = try await stream.receive(until: { $0.type == "result" || $0.type == "error" }, timeout: 60).last
        #expect(answer?["result"] == ["matches": 1])
        try await stream.send(JSONValue.object([("id", "n"), ("op", "findNext"), ("sessionId", .string(sid)), ("pageId", .string(main))]))
        #expect(try await stream.receive(until: { $0.type == "result" || $0.type == "error" }, timeout: 60).last?["result"] == ["matches": 1])
        try await stream.send(JSONValue.object([("id", "c"), ("op", "findClear"), ("sessionId", .string(sid)), ("pageId", .string(main))]))
        #expect(try await stream.receive(until: { $0.type == "result" || $0.type == "error" }, timeout: 60).last?["result"] == .null)
        await stream.close()
        await fixture.stop()
    }

    @Test func scrollAndClickOverHTTP() async throws {
        let fixture = try await startServer()
        let html = """
            <title>s</title><body style='margin:0'><div style='height:2000px'>top</div>
            <div id=target style='height:50px'>Target</div><div style='height:2000px'></div>
            <button id=pay style='width:120px;height:40px'>Pay</button>
            <script>window.clicks = []; document.getElementById('pay').addEventListener('click', e => window.clicks.push(e.isTrusted));</script>
            """
        let body = JSONValue.object([("html", .string(html)), ("baseURL", "http://127.0.0.1/s"),
                                     ("viewport", ["width": 400, "height": 300])]).serialized
        let (sid, main) = try await fixture.createSession(body)
        try await fixture.waitForPage(sid, main, "scroll state") { $0["scroll"]?["y"] == 0 && $0["navigation"]?["event"] == "finished" }
        let base = "/api/sessions/\(sid)/pages/\(main)"
        // Refusals first: nothing scrolls.
        expectRefusal(try await fixture.http.post(base + "/scroll", json: ##"{"selector":"#missing"}"##), 404)
        expectRefusal(try await fixture.http.post(base + "/scroll", json: ###"{"selector":"##bad"}"###), 400)
        expectRefusal(try await fixture.http.post(base + "/scroll", json: #"{"selector":""}"#), 400, naming: "body.selector")
        expectRefusal(try await fixture.http.post(base + "/scroll", json: #"{"x":-1,"y":0}"#), 400, naming: "body.x")
        expectRefusal(try await fixture.http.post(base + "/scroll", json: #"{"x":0}"#), 400, naming: "body.y")
        expectRefusal(try await fixture.http.post(base + "/scroll", json: #"{"x":0,"y":"10"}"#), 400, naming: "body.y")
        expectRefusal(try await fixture.http.post(base + "/scroll", json: ##"{"selector":"#target","x":0,"y":0}"##), 400, naming: "body.selector")
        expectRefusal(try await fixture.http.post(base + "/click", json: ##"{"selector":"#nothing"}"##), 404)
        expectRefusal(try await fixture.http.post(base + "/click", json: #"{"selector":"a[["}"#), 400)
        expectRefusal(try await fixture.http.post(base + "/click", json: "{}"), 400, naming: "body.selector")
        expectRefusal(try await fixture.http.post(base + "/click", json: ##"{"selector":"#pay","button":"right"}"##), 400, naming: "body.button")
        #expect(try await fixture.page(sid, main)?["scroll"]?["y"] == 0)

        // Scrolling to the element streams the new position as page.updated.
        let stream = try await fixture.stream()
        _ = try await stream.receiveJSON()
        #expect(try await fixture.http.post(base + "/scroll", json: ##"{"selector":"#target"}"##).status == 204)
        let update = try await stream.receive(until: { $0.isEvent("page.updated", page: main) && $0["changes"]?["scroll"]?["y"] == 2000 },
                                              timeout: 60)
        #expect(update.last?["changes"]?["scroll"]?["contentHeight"]?.doubleValue ?? 0 > 4000)
        #expect(try await fixture.http.post(base + "/scroll", json: #"{"x":0,"y":120}"#).status == 204)
        try await fixture.waitForPage(sid, main, "scrolled to 120") { $0["scroll"]?["y"] == 120 }

        #expect(try await fixture.http.post(base + "/click", json: ##"{"selector":"#pay"}"##).status == 204)
        // The click is real input: it reaches the page's handler as a trusted event, shortly after.
        try await fixture.waitForScript(base, "return window.clicks", toBe: [true])
        // Over the socket too.
        try await stream.send(JSONValue.object([("id", 9), ("op", "click"), ("sessionId", .string(sid)), ("pageId", .string(main)),
                                                ("selector", "#pay")]))
        let clicked = try await stream.receive(until: { $0.type == "result" || $0.type == "error" }, timeout: 60).last
        #expect(clicked?.type == "result")
        try await stream.send(JSONValue.object([("id", 10), ("op", "scroll"), ("sessionId", .string(sid)), ("pageId", .string(main)),
                                                ("selector", "#missing")]))
        let missing = try await stream.receive(until: { $0.type == "result" || $0.type == "error" }, timeout: 60).last
        #expect(missing?["error"]?["code"] == "not_found")
        await stream.close()
        await fixture.stop()
    }

    @Test func navigationRulesBlockALinkClickAndTheStreamSaysWhich() async throws {
        let fixture = try await startServer()
        let stream = try await fixture.stream()
        _ = try await stream.receiveJSON()
        let html = """
            <title>links</title>
            <a id=shop href='http://shop.example.test/cart' style='display:block;width:200px;height:40px'>shop</a>
            <a id=local href='about:blank#ok' style='display:block;width:200px;height:40px'>local</a>
            """
        let body = JSONValue.object([
            ("html", .string(html)), ("baseURL", "http://127.0.0.1/links"),
            ("navigationRules", ["rules": [["host": "*.example.test", "action": "block"]], "default": "allow"]),
        ]).serialized
        let (sid, main) = try await fixture.createSession(body)
        try await fixture.waitForLoad(sid, main, url: "http://127.0.0.1/links")
        #expect(try await fixture.http.post("/api/sessions/\(sid)/pages/\(main)/click", json: ##"{"selector":"#shop"}"##).status == 204)
        let blocked = try await stream.receive(until: { $0.isEvent("navigation.blocked", page: main) }, timeout: 60).last
        #expect(blocked?["url"] == "http://shop.example.test/cart")
        #expect(blocked?["rule"]?["kind"] == "rule")
        #expect(blocked?["rule"]?["index"] == 0)
        #expect(blocked?["rule"]?["host"] == "*.example.test")
        #expect(blocked?["rule"]?["action"] == "block")
        #expect(blocked?["sessionId"]?.stringValue == sid)
        // The page stayed; an allowed link still navigates.
        #expect(try await fixture.page(sid, main)?["url"]?.stringValue == "http://127.0.0.1/links")
        #expect(try await fixture.http.post("/api/sessions/\(sid)/pages/\(main)/click", json: ##"{"selector":"#local"}"##).status == 204)
        try await fixture.waitForPage(sid, main, "the allowed link") { $0["url"]?.stringValue == "about:blank#ok" }
        await stream.close()
        await fixture.stop()
    }

    @Test func sessionOptionsAreAcceptedAndEachBadOneIsRefusedNamingTheField() async throws {
        let fixture = try await startServer()
        let all = """
            {"html":"<title>opts</title>","label":"all","promptText":"hi","maxPopups":3,"processModel":"shared",
             "onCrash":"reload","maxCrashReloads":2,"idleTimeout":600,"maxLifetime":3600.5,"dialogTimeout":0.5,
             "navigationRules":{"rules":[{"scheme":"https","host":"pay.example.test","pathPrefix":"/checkout","action":"allow"},
                                          {"scheme":"https","action":"block"}],"default":"allow"}}
            """
        let (sid, _) = try await fixture.createSession(all)
        #expect(try await fixture.http.delete("/api/sessions/\(sid)").status == 204)
        // Nulls leave the timeouts off.
        let (nulls, _) = try await fixture.createSession(#"{"url":"about:blank","idleTimeout":null,"navigationRules":null}"#)
        #expect(try await fixture.http.delete("/api/sessions/\(nulls)").status == 204)

        let bad: [(String, String)] = [
            (#"{"url":"about:blank","maxPopups":-1}"#, "body.maxPopups"),
            (#"{"url":"about:blank","maxPopups":"3"}"#, "body.maxPopups"),
            (#"{"url":"about:blank","processModel":"pooled"}"#, "body.processModel"),
            (#"{"url":"about:blank","onCrash":"restart"}"#, "body.onCrash"),
            (#"{"url":"about:blank","maxCrashReloads":1.5}"#, "body.maxCrashReloads"),
            (#"{"url":"about:blank","idleTimeout":0}"#, "body.idleTimeout"),
            (#"{"url":"about:blank","maxLifetime":"1h"}"#, "body.maxLifetime"),
            (#"{"url":"about:blank","dialogTimeout":-5}"#, "body.dialogTimeout"),
            (#"{"url":"about:blank","promptText":7}"#, "body.promptText"),
            (#"{"url":"about:blank","navigationRules":[]}"#, "body.navigationRules"),
            (#"{"url":"about:blank","navigationRules":{"rules":[{"host":"a.test"}]}}"#, "body.navigationRules.rules[0].action"),
            (#"{"url":"about:blank","navigationRules":{"rules":[{"action":"deny"}]}}"#, "body.navigationRules.rules[0].action"),
            (#"{"url":"about:blank","navigationRules":{"rules":[{"action":"block","port":80}]}}"#, "body.navigationRules.rules[0].port"),
            (#"{"url":"about:blank","navigationRules":{"rules":[{"action":"block","scheme":"https://"}]}}"#, "body.navigationRules.rules[0].scheme"),
            (#"{"url":"about:blank","navigationRules":{"rules":[{"action":"block","host":"a*.test"}]}}"#, "body.navigationRules.rules[0].host"),
            (#"{"url":"about:blank","navigationRules":{"rules":[{"action":"block","pathPrefix":"admin"}]}}"#, "body.navigationRules.rules[0].pathPrefix"),
            (#"{"url":"about:blank","navigationRules":{"default":"maybe"}}"#, "body.navigationRules.default"),
            (#"{"url":"about:blank","navigationRules":{"rules":{}}}"#, "body.navigationRules.rules"),
            (#"{"data":"PHA+","url":"about:blank"}"#, "body.data"),
            (#"{"data":"PHA+"}"#, "body.mimeType"),
            (#"{"data":"not base64!","mimeType":"text/html"}"#, "body.data"),
            (#"{"data":"PHA+","mimeType":"html"}"#, "body.mimeType"),
            (#"{"data":"PHA+","mimeType":"text/html","encoding":"utf 8"}"#, "body.encoding"),
            (#"{"html":"<p>","mimeType":"text/html"}"#, "body.mimeType"),
            (#"{"url":"about:blank","encoding":"utf-8"}"#, "body.encoding"),
            (#"{"data":"PHA+","mimeType":"text/html","baseURL":"file:///etc/"}"#, "body.baseURL"),
        ]
        for (body, field) in bad {
            expectRefusal(try await fixture.http.post("/api/sessions", json: body), 400, naming: field)
        }
        // None of them opened a session.
        let health = try JSONParser.parse(try await fixture.http.get("/api/health").body)
        #expect(health["sessions"] == 0)
        await fixture.stop()
    }

    @Test func navigateLoadsDataWithItsMimeTypeEncodingAndBaseURL() async throws {
        let fixture = try await startServer()
        let (sid, main) = try await fixture.createSession(#"{"url":"about:blank"}"#)
        let base = "/api/sessions/\(sid)/pages/\(main)"
        // "café" in ISO-8859-1: é is the one byte 0xE9.
        let bytes: [UInt8] = Array("<title>caf".utf8) + [0xE9] + Array("</title>".utf8)
        let body = JSONValue.object([("data", .string(Data(bytes).base64EncodedString())), ("mimeType", "text/html"),
                                     ("encoding", "ISO-8859-1"), ("baseURL", "http://127.0.0.1/d")]).serialized
        let navigated = try await fixture.http.post(base + "/navigate", json: body)
        #expect(navigated.status == 200, "\(navigated.text)")
        try await fixture.waitForPage(sid, main, "the data page") { $0["title"] == "café" && $0["url"] == "http://127.0.0.1/d" }
        // Refused data loads change nothing.
        expectRefusal(try await fixture.http.post(base + "/navigate", json: #"{"data":"PHA+","mimeType":"text/html","encoding":""}"#),
                      400, naming: "body.encoding")
        expectRefusal(try await fixture.http.post(base + "/navigate", json: #"{"data":7,"mimeType":"text/html"}"#), 400, naming: "body.data")
        #expect(try await fixture.page(sid, main)?["title"] == "café")
        // Over the socket: a data page created directly.
        let stream = try await fixture.stream()
        _ = try await stream.receiveJSON()
        try await stream.send(JSONValue.object([("id", 1), ("op", "createSession"), ("data", .string(Data("just text".utf8).base64EncodedString())),
                                                ("mimeType", "text/plain"), ("baseURL", "http://127.0.0.1/t")]))
        let created = try await stream.receive(until: { $0.type == "result" || $0.type == "error" }, timeout: 60).last
        #expect(created?.type == "result", "\(created?.serialized ?? "")")
        await stream.close()
        await fixture.stop()
    }
}
