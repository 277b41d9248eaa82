import PagehostCore
import Testing

/// The host applies a session's navigation rules to every navigation and popup the engine asks about.
@Suite("Navigation blocking")
struct NavigationBlockingTests {
    init() { startLoop() }

    static let rules = NavigationRules(rules: [NavigationRule(host: "*.example.test", action: .block)])

    @Test("a blocked navigation is refused and reported with its rule")
    @LoopActor func blockedNavigation() throws {
        let f = HostFixture()
        let session = try f.createSession { $0.navigationRules = Self.rules }
        let main = session.pages[0].id
        let mark = f.mark
        #expect(f.reports.navigationRequested(by: main, url: "https://shop.example.test/cart") == false)
        #expect(f.reports.navigationRequested(by: main, url: "https://example.org/") == true)
        let events = f.events(after: mark)
        #expect(events.map(\.type) == ["navigation.blocked"])
        #expect(events.first?.json["url"] == "https://shop.example.test/cart")
        #expect(events.first?.json["rule"]?["index"] == 0)
        #expect(events.first?.json["rule"]?["host"] == "*.example.test")
        #expect(events.first?.json["rule"]?["action"] == "block")
    }

    @Test("a popup to a blocked host is never created")
    @LoopActor func blockedPopup() throws {
        let f = HostFixture()
        let session = try f.createSession { $0.navigationRules = Self.rules }
        let main = session.pages[0].id
        let mark = f.mark
        #expect(f.reports.popupRequested(by: main, url: "https://ads.example.test/") == nil)
        let events = f.events(after: mark)
        #expect(events.map(\.type) == ["popup.blocked"])
        #expect(events.first?.json["reason"] == "navigationRule")
        #expect(try f.host.snapshot(of: session.id).order == [main])
    }

    @Test("a response that cannot be shown is reported, not dropped")
    @LoopActor func notDisplayable() throws {
        let f = HostFixture()
        let main = try f.createSession().pages[0].id
        let mark = f.mark
        f.reports.responseNotDisplayable(in: main, url: "https://example.org/report.zip", mimeType: "application/zip")
        let event = try #require(f.events(after: mark).first)
        #expect(event.type == "navigation.blocked")
        #expect(event.json["rule"]?["kind"] == "notDisplayable")
        #expect(event.json["rule"]?["mimeType"] == "application/zip")
    }
}
