import MainLoop
import PagehostCore
import Testing
import WebKitEngine

/// Popups opened by real pages in real WebKit: `window.open`, `target=_blank`, `window.close()`, and the
/// two ways of showing them.
@Suite
struct PopupTests {
    init() { MainLoop.shared.start() }

    static let server = try! TestHTTPServer { path in
        switch path {
        case "/popup": return .init(body: "<title>popup</title><p>popup page</p>")
        default: return .init(body: "<title>main</title><p>main page</p>")
        }
    }

    @Test @LoopActor func windowOpenStacksPopupOverItsOpenerAndTheyTalkBothWays() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let origin = Self.server.origin
        let (_, main) = try await h.openSession(.url(origin + "/"))
        _ = try await h.eval(main, """
            window.received = null;
            window.addEventListener('message', e => { window.received = e.data; });
            window.popup = window.open(url, 'child', 'width=400,height=300');
            return window.popup !== null;
            """, [("url", .string(origin + "/popup"))])
        let popup = try await h.waitForEvent("popup page.opened") {
            if case .pageOpened(let p) = $0.payload { return p.role == .popup } else { return false }
        }
        guard case .pageOpened(let state) = popup.payload else { return }
        #expect(state.openerID == main)
        #expect(state.hasOpener)
        #expect(state.visible)
        #expect(state.windowFeatures?.width == 400)
        #expect(state.windowFeatures?.height == 300)
        try await h.waitForNavigation(state.id, .finished)
        #expect(try h.host.page(main).visible == false)
        #expect(try h.host.snapshot(of: state.sessionID).order == [main, state.id])

        // The popup reaches its opener through window.opener.postMessage …
        _ = try await h.eval(state.id, "window.opener.postMessage('hello from popup', '*'); return true")
        var received = JSONValue.null
        try await h.waitUntilAsync("opener got the message") {
            received = (try? await h.eval(main, "return window.received")) ?? .null
            return received != .null
        }
        #expect(received == "hello from popup")
        // … and the opener scripts its popup.
        let title = try await h.eval(main, "window.popup.document.body.dataset.mark = 'set by opener'; return window.popup.document.title")
        #expect(title == "popup")
        #expect(try await h.eval(state.id, "return document.body.dataset.mark") == "set by opener")
    }

    @Test @LoopActor func tabbedModeMakesThePopupTheActiveTab() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        var options = SessionOptions()
        options.popupMode = .tabbed
        let (session, main) = try await h.openSession(.url(Self.server.origin + "/"), options: options)
        _ = try await h.eval(main, "window.open('/popup'); return 1")
        let popup = try await h.waitForPopup()
        #expect(popup.openerID == main)
        #expect(popup.visible)
        let snapshot = try h.host.snapshot(of: session)
        #expect(snapshot.popupMode == .tabbed)
        #expect(snapshot.order == [main, popup.id])
        #expect(try h.host.page(main).visible == false)
    }

    @Test @LoopActor func aTargetBlankLinkClickedByScriptOpensAPopupWithoutOpener() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let html = "<a id=l href='/popup' target=_blank>open</a>"
        let (_, main) = try await h.openSession(.html(html, baseURL: Self.server.origin + "/"))
        _ = try await h.eval(main, "document.getElementById('l').click(); return 1")
        let popup = try await h.waitForPopup()
        #expect(popup.openerID == main)
        // target=_blank implies noopener in today's HTML.
        #expect(popup.hasOpener == false)
        #expect(popup.url.hasSuffix("/popup"))
        #expect(h.openedPopups.count == 1)
    }

    @Test @LoopActor func aPopupClosingItselfRestoresItsOpener() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (session, main) = try await h.openSession(.url(Self.server.origin + "/"))
        _ = try await h.eval(main, "window.open('/popup'); return 1")
        let popup = try await h.waitForPopup()
        try await h.waitForNavigation(popup.id, .finished)
        _ = try await h.eval(popup.id, "setTimeout(() => window.close(), 0); return 1")
        let closed = try await h.waitForEvent("page.closed") {
            if case .pageClosed(_, let id, _, _) = $0.payload { return id == popup.id } else { return false }
        }
        guard case .pageClosed(_, _, let reason, _) = closed.payload else { return }
        #expect(reason == .script)
        #expect(try h.host.snapshot(of: session).order == [main])
        #expect(try h.host.page(main).visible)
    }

    @Test @LoopActor func theMainPageCannotCloseItself() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (session, main) = try await h.openSession(.url(Self.server.origin + "/"))
        _ = try await h.eval(main, "setTimeout(() => window.close(), 0); return 1")
        try await h.waitForEvent("page.closeRefused") {
            if case .pageCloseRefused(_, let id, _) = $0.payload { return id == main } else { return false }
        }
        #expect(try h.host.snapshot(of: session).order == [main])
        #expect(try await h.eval(main, "return document.title") == "main")
        await #expect(throws: PagehostError.self) { try await h.host.closePage(main) }
    }

    @Test @LoopActor func closingTheMiddleOfAStackOfThreeKeepsTheOtherTwoInOrder() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (session, main) = try await h.openSession(.url(Self.server.origin + "/"))
        _ = try await h.eval(main, "window.open('/popup'); return 1")
        let first = try await h.waitForPopup()
        try await h.waitForNavigation(first.id, .finished)
        _ = try await h.eval(first.id, "window.open('/popup'); return 1")
        let second = try await h.waitForPopup(count: 2)
        #expect(second.openerID == first.id)
        #expect(try h.host.snapshot(of: session).order == [main, first.id, second.id])
        #expect(try await h.host.closePage(first.id).forced == false, "a page without beforeunload agrees at once")
        #expect(try h.host.snapshot(of: session).order == [main, second.id])
        #expect(try h.host.page(second.id).visible)
        #expect(try h.host.page(main).visible == false)
        // The page it opened stays open and working.
        try await h.waitForNavigation(second.id, .finished)
        #expect(try await h.eval(second.id, "return document.title") == "popup")
    }

    @Test @LoopActor func blockedPopupsReturnNullAndSayWhy() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        var options = SessionOptions()
        options.popupPolicy = .block
        let (_, main) = try await h.openSession(.url(Self.server.origin + "/"), options: options)
        #expect(try await h.eval(main, "return window.open('/popup') === null") == true)
        let blocked = try await h.waitForEvent("popup.blocked") { $0.type == "popup.blocked" }
        guard case .popupBlocked(_, let opener, let url, let reason) = blocked.payload else { return }
        #expect(opener == main)
        #expect(reason == .policy)
        #expect(url.hasSuffix("/popup"))
        #expect(h.openedPopups.isEmpty)
    }

    @Test @LoopActor func thePopupCapRefusesOneMore() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        var options = SessionOptions()
        options.maxPopups = 1
        let (_, main) = try await h.openSession(.url(Self.server.origin + "/"), options: options)
        #expect(try await h.eval(main, "return window.open('/popup') !== null") == true)
        #expect(try await h.eval(main, "return window.open('/popup?2') === null") == true)
        let blocked = try await h.waitForEvent("popup.blocked") { $0.type == "popup.blocked" }
        guard case .popupBlocked(_, _, _, let reason) = blocked.payload else { return }
        #expect(reason == .limit)
        _ = try await h.waitForPopup()
        #expect(h.openedPopups.count == 1)
    }
}

extension EngineHarness {
    /// Waits for the `count`-th popup's `page.opened` and returns that popup.
    func waitForPopup(count: Int = 1, sourceLocation: SourceLocation = #_sourceLocation) async throws -> PageState {
        try await waitUntil("\(count) popup(s) opened", sourceLocation: sourceLocation) { self.openedPopups.count >= count }
        return openedPopups[count - 1]
    }

    /// Polls an async condition (one that evaluates in a page) until it holds or the deadline passes.
    func waitUntilAsync(_ description: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async -> Bool) async throws {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: EngineHarness.deadline)
        while await !condition() {
            guard clock.now < end else {
                Issue.record("timed out waiting for \(description)", sourceLocation: sourceLocation)
                throw HarnessError.timedOut(description)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
