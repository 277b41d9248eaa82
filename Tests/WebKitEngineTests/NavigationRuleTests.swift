import MainLoop
import PagehostCore
import Testing
import WebKitEngine

/// Navigation rules in real pages: a blocked link click is cancelled and reported, allowed hosts load, and
/// a popup to a blocked host is never created.
@Suite
struct NavigationRuleTests {
    init() { MainLoop.shared.start() }

    static let server = try! TestHTTPServer { _ in .init(body: "<title>allowed</title>") }

    func options() -> SessionOptions {
        var options = SessionOptions()
        options.navigationRules = NavigationRules(rules: [NavigationRule(host: "*.example.test", action: .block)])
        return options
    }

    @Test @LoopActor func aBlockedLinkClickIsCancelledAndNamesTheRule() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let html = "<title>start</title><a id=blocked href='http://shop.example.test/cart'>shop</a><a id=ok href='/next'>next</a>"
        let (_, main) = try await h.openSession(.html(html, baseURL: Self.server.origin + "/"), options: options())
        _ = try await h.eval(main, "document.getElementById('blocked').click(); return 1")
        let blocked = try await h.waitForEvent("navigation.blocked") { $0.type == "navigation.blocked" }
        #expect(blocked.json["pageId"] == .string(main.rawValue))
        #expect(blocked.json["url"] == "http://shop.example.test/cart")
        #expect(blocked.json["rule"]?["host"] == "*.example.test")
        #expect(blocked.json["rule"]?["index"] == 0)
        #expect(try h.host.page(main).url == Self.server.origin + "/")

        // An allowed host loads as usual.
        _ = try await h.eval(main, "document.getElementById('ok').click(); return 1")
        try await h.waitUntil("the allowed page loaded") {
            (try? h.host.page(main).url) == Self.server.origin + "/next" && (try? h.host.page(main).title) == "allowed"
        }
    }

    @Test @LoopActor func aPopupToABlockedHostIsNotCreated() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (_, main) = try await h.openSession(.html("<title>start</title>", baseURL: Self.server.origin + "/"), options: options())
        #expect(try await h.eval(main, "return window.open('http://ads.example.test/') === null") == true)
        let blocked = try await h.waitForEvent("popup.blocked") { $0.type == "popup.blocked" }
        #expect(blocked.json["reason"] == "navigationRule")
        #expect(h.openedPopups.isEmpty)
    }

    @Test @LoopActor func aDownloadIsCancelledAndReported() async throws {
        let server = try TestHTTPServer { _ in
            .init(headers: [("Content-Type", "application/zip"), ("Content-Disposition", "attachment; filename=x.zip")], body: "PK")
        }
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (_, main) = try await h.openSession(.html("<title>start</title>", baseURL: server.origin + "/"))
        try h.host.navigate(main, to: .url(server.origin + "/report.zip"))
        let blocked = try await h.waitForEvent("navigation.blocked") { $0.type == "navigation.blocked" }
        #expect(blocked.json["rule"]?["kind"] == "notDisplayable")
        #expect(blocked.json["rule"]?["mimeType"] == "application/zip")
        #expect(blocked.json["url"] == .string(server.origin + "/report.zip"))
    }
}
