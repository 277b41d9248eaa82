import PagehostCore
import Testing

/// Popups through the host: the engine asks, the host decides, the popup opens over (or beside) its opener.
@Suite("Popups")
struct PopupTests {
    init() { startLoop() }

    @Test("an allowed popup opens on top of its opener, which is no longer visible", arguments: PopupMode.allCases)
    @LoopActor func popupOpens(mode: PopupMode) throws {
        let f = HostFixture()
        let session = try f.createSession { $0.popupMode = mode }
        let main = session.pages[0].id
        let mark = f.mark

        let popup = try #require(f.reports.popupRequested(by: main, url: "https://pay.test/checkout"))
        // Not a page until the engine shows it.
        #expect(f.events(after: mark).isEmpty)
        #expect(pagehostError { _ = try f.host.page(popup) }?.code == .notFound)

        let features = WindowFeatures(width: 500, height: 600, toolbarVisible: false)
        f.reports.popupReady(popup, hasOpener: true, windowFeatures: features)

        let events = f.events(after: mark)
        #expect(events.map(\.type) == ["page.opened", "page.updated"])
        guard case .pageOpened(let opened) = events.first?.payload else { return }
        #expect(opened.id == popup)
        #expect(opened.sessionID == session.id)
        #expect(opened.openerID == main)
        #expect(opened.role == .popup)
        #expect(opened.visible)
        #expect(opened.hasOpener)
        #expect(opened.url == "https://pay.test/checkout")
        #expect(opened.windowFeatures == features)
        // The opener is covered: only `visible` changed.
        #expect(events[1].pageID == main.rawValue)
        #expect(events[1].changes == ["visible": false])

        #expect(try f.page(main).visible == false)
        #expect(try f.page(popup).visible)
        #expect(try f.host.snapshot(of: session.id).order == [main, popup])
        #expect(try f.host.snapshot(of: session.id).pages.map(\.id) == [main, popup])
    }

    @Test("a popup of a popup covers the visible popup, not the main page again")
    @LoopActor func popupOfPopup() throws {
        let f = HostFixture()
        let main = try f.createSession().pages[0].id
        let first = try f.openPopup(from: main)
        let mark = f.mark
        let second = try f.openPopup(from: first)
        let events = f.events(after: mark)
        #expect(events.map(\.type) == ["page.opened", "page.updated"])
        #expect(events[1].pageID == first.rawValue)
        #expect(events[1].changes == ["visible": false])
        #expect(try f.page(second).openerID == first)
    }

    @Test("a noopener popup still names its opener, with hasOpener false")
    @LoopActor func noopener() throws {
        let f = HostFixture()
        let main = try f.createSession().pages[0].id
        let popup = try f.openPopup(from: main, hasOpener: false)
        #expect(try f.page(popup).openerID == main)
        #expect(try f.page(popup).hasOpener == false)
    }

    @Test("what the engine reports before a popup shows is in its page.opened")
    @LoopActor func pendingChangesFolded() throws {
        let f = HostFixture()
        let main = try f.createSession().pages[0].id
        let popup = try #require(f.reports.popupRequested(by: main, url: "about:blank"))
        let mark = f.mark
        f.reports.pageChanged(popup) {
            $0.title = "Pay"
            $0.url = "https://pay.test/"
        }
        #expect(f.events(after: mark).isEmpty)
        f.reports.popupReady(popup, hasOpener: true, windowFeatures: nil)
        guard case .pageOpened(let opened) = f.events(after: mark).first?.payload else {
            Issue.record("no page.opened")
            return
        }
        #expect(opened.title == "Pay")
        #expect(opened.url == "https://pay.test/")
    }

    @Test("a popup reported ready twice stays one page")
    @LoopActor func readyTwice() throws {
        let f = HostFixture()
        let session = try f.createSession()
        let main = session.pages[0].id
        let popup = try f.openPopup(from: main)
        let mark = f.mark
        f.reports.popupReady(popup, hasOpener: true, windowFeatures: nil)
        #expect(f.events(after: mark).isEmpty)
        #expect(try f.host.snapshot(of: session.id).order == [main, popup])
    }

    @Test("with popupPolicy block the request is refused and popup.blocked says policy")
    @LoopActor func blockedByPolicy() throws {
        let f = HostFixture()
        let session = try f.createSession { $0.popupPolicy = .block }
        let main = session.pages[0].id
        let mark = f.mark
        #expect(f.reports.popupRequested(by: main, url: "https://ads.test/") == nil)
        let events = f.events(after: mark)
        #expect(events.map(\.type) == ["popup.blocked"])
        guard case .popupBlocked(let sid, let opener, let url, let reason) = events.first?.payload else { return }
        #expect(sid == session.id)
        #expect(opener == main)
        #expect(url == "https://ads.test/")
        #expect(reason == .policy)
        #expect(try f.host.snapshot(of: session.id).order == [main])
    }

    @Test("past maxPopups the request is refused and popup.blocked says limit")
    @LoopActor func blockedByLimit() throws {
        let f = HostFixture()
        let session = try f.createSession { $0.maxPopups = 2 }
        let main = session.pages[0].id
        let shown = try f.openPopup(from: main)
        // A popup asked for but not yet shown counts too.
        let pending = try #require(f.reports.popupRequested(by: main, url: "https://b.test/"))
        let mark = f.mark

        #expect(f.reports.popupRequested(by: shown, url: "https://c.test/") == nil)
        let events = f.events(after: mark)
        #expect(events.map(\.type) == ["popup.blocked"])
        guard case .popupBlocked(_, let opener, let url, let reason) = events.first?.payload else { return }
        #expect(opener == shown)
        #expect(url == "https://c.test/")
        #expect(reason == .limit)

        // Abandoning the pending one frees its slot.
        f.reports.popupAbandoned(pending)
        #expect(f.reports.popupRequested(by: main, url: "https://d.test/") != nil)
        #expect(f.reports.popupRequested(by: main, url: "https://e.test/") == nil)
    }

    @Test("maxPopups 0 refuses every popup")
    @LoopActor func zeroPopups() throws {
        let f = HostFixture()
        let main = try f.createSession { $0.maxPopups = 0 }.pages[0].id
        let mark = f.mark
        #expect(f.reports.popupRequested(by: main, url: "https://a.test/") == nil)
        guard case .popupBlocked(_, _, _, let reason) = f.events(after: mark).first?.payload else {
            Issue.record("no popup.blocked")
            return
        }
        #expect(reason == .limit)
    }

    @Test("a closed popup frees its slot under the cap")
    @LoopActor func closingFreesSlot() async throws {
        let f = HostFixture()
        let main = try f.createSession { $0.maxPopups = 1 }.pages[0].id
        let popup = try f.openPopup(from: main)
        #expect(f.reports.popupRequested(by: main, url: "https://b.test/") == nil)
        try await f.host.closePage(popup)
        #expect(f.reports.popupRequested(by: main, url: "https://b.test/") != nil)
    }

    @Test("an abandoned popup never becomes a page")
    @LoopActor func abandoned() throws {
        let f = HostFixture()
        let session = try f.createSession()
        let main = session.pages[0].id
        let popup = try #require(f.reports.popupRequested(by: main, url: "https://a.test/"))
        f.reports.popupAbandoned(popup)
        let mark = f.mark
        f.reports.popupReady(popup, hasOpener: true, windowFeatures: nil)
        #expect(f.events(after: mark).isEmpty)
        #expect(try f.host.snapshot(of: session.id).order == [main])
    }

    @Test("a page the host does not know cannot open popups")
    @LoopActor func unknownOpener() throws {
        let f = HostFixture()
        _ = try f.createSession()
        let mark = f.mark
        #expect(f.reports.popupRequested(by: PageID("nowhere"), url: "https://a.test/") == nil)
        #expect(f.events(after: mark).isEmpty)
    }
}
