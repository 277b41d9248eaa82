import Foundation
import PagehostCore
import Testing

/// The demo session opens on the bundled page that pagehost serves itself, and that page shows a popup and a
/// dialog at once.
@Suite("Demo session with real pages")
struct DemoSessionTests {
    @Test func theDemoPageIsServedAndOpensAPopupAndADialog() async throws {
        let fixture = try await startServer()
        let stream = try await fixture.stream()
        _ = try await stream.receiveJSON()
        let demo = try await fixture.server.openDemoSession()
        #expect(demo.pages.first?.url == "http://127.0.0.1:\(fixture.port)/demo/index.html")
        let seen = try await stream.receive(collectingUntil: { seen in
            seen.contains { $0.isEvent("page.opened") && $0["page"]?["role"] == "popup" } && seen.contains { $0.type == "dialog.opened" }
        }, timeout: 30)
        #expect(seen.contains { $0.updates("title", to: "Pagehost demo: checkout") })
        let popup = try #require(seen.first { $0.isEvent("page.opened") && $0["page"]?["role"] == "popup" })
        #expect(popup["page"]?["hasOpener"] == true)
        let popupID = try #require(popup["pageId"]?.stringValue)
        // The popup loads the demo's popup page, also served by pagehost. It runs in its opener's web process,
        // which the confirm holds until answered: on a loaded machine the popup has not loaded by then.
        let dialogID = try #require(seen.first { $0.type == "dialog.opened" }?["dialog"]?["id"]?.stringValue)
        let answered = try await fixture.http.post("/api/sessions/\(demo.id.rawValue)/dialogs/\(dialogID)", json: #"{"accept":true}"#)
        #expect(answered.status == 200)
        let deadline = Date().addingTimeInterval(20)
        var popupURL: String?
        while Date() < deadline {
            let session = try JSONParser.parse(try await fixture.http.get("/api/sessions/\(demo.id.rawValue)").body)
            popupURL = session["pages"]?.arrayValue?.first { $0["id"]?.stringValue == popupID }?["url"]?.stringValue
            if popupURL?.contains("/demo/popup.html") == true { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(popupURL?.hasPrefix("http://127.0.0.1:\(fixture.port)/demo/popup.html") == true, "\(popupURL ?? "no popup")")
        // The demo is public (static, no state), unlike everything else but health.
        var anonymous = fixture.http
        anonymous.token = nil
        let page = try await anonymous.get("/demo/index.html")
        #expect(page.status == 200)
        #expect(page.headers["x-content-type-options"] == "nosniff")
        for escape in ["/demo/../config/pagehost.json", "/demo/%2e%2e/config/pagehost.json", "/demo/..%2fconfig/pagehost.json"] {
            let response = try await anonymous.get(escape)
            #expect(response.status != 200, "\(escape)")
            #expect(!response.text.contains("limits"), "\(escape)")
        }
        await stream.close()
        await fixture.stop()
    }
}
