import MainLoop
import PagehostCore
import Testing
import WebKitEngine

/// Navigation events with one id per navigation, as WebKit's `WebPage.currentNavigationEvent`.
@Suite
struct NavigationTests {
    init() { MainLoop.shared.start() }

    static let server = try! TestHTTPServer { path in
        switch path {
        case "/redirect": return .init(status: 302, headers: [("Location", "/target")])
        case "/target": return .init(body: "<title>target</title><meta name=theme-color content='#336699'>")
        default: return .init(body: "<title>start</title>")
        }
    }

    /// The `navigation` values a page went through, from its `page.updated` events.
    @LoopActor func navigations(_ h: EngineHarness, _ page: PageID) -> [JSONValue] {
        h.events.compactMap {
            guard case .pageUpdated(_, let id, let changes) = $0.payload, id == page else { return nil }
            return changes.first { $0.0 == "navigation" }?.1
        }
    }

    @Test @LoopActor func aRedirectIsReportedInTheNavigation() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (_, main) = try await h.openSession(.url(Self.server.origin + "/redirect"))
        let events = navigations(h, main).compactMap { $0["event"]?.stringValue }
        #expect(events == ["startedProvisional", "receivedServerRedirect", "committed", "finished"])
        let ids = Set(navigations(h, main).compactMap { $0["id"]?.intValue })
        #expect(ids.count == 1)
        let page = try h.host.page(main)
        #expect(page.url == Self.server.origin + "/target")
        try await h.waitUntil("title and theme colour") {
            (try? h.host.page(main).title) == "target" && (try? h.host.page(main).themeColor) == "#336699"
        }
        #expect(page.isLoading == false)
        #expect(page.estimatedProgress == 1)
    }

    @Test @LoopActor func anUnreachableURLFailsProvisionally() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        // A loopback port nothing listens on: the connection is refused at once. (Not a port WebKit itself
        // blocks, like 1, which it answers with about:blank instead.)
        let (_, main) = try await h.openSession(.url("http://127.0.0.1:\(EngineHarness.closedPort())/"), waitForLoad: false)
        try await h.waitForNavigation(main, .failedProvisional)
        let navigation = try #require(try h.host.page(main).navigation)
        #expect(navigation.error?.isEmpty == false)
        #expect(try h.host.page(main).isLoading == false)
    }

    @Test @LoopActor func aSecondNavigationGetsANewIdAndHistory() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (_, main) = try await h.openSession(.url(Self.server.origin + "/"))
        let first = try #require(try h.host.page(main).navigation?.id)
        #expect(try h.host.page(main).canGoBack == false)
        try h.host.navigate(main, to: .url(Self.server.origin + "/target"))
        try await h.waitUntil("second navigation finished") {
            let nav = try? h.host.page(main).navigation
            return nav?.event == .finished && nav?.id != first
        }
        try await h.waitUntil("can go back") { (try? h.host.page(main).canGoBack) == true }
    }
}
