import PagehostCore
import Testing

/// Pages closing one at a time: by their own script, or by a command. The main page closes only with its session.
@Suite("Closing pages")
struct ClosingPagesTests {
    init() { startLoop() }

    @Test("a popup whose script calls window.close() closes with reason script and uncovers its opener")
    @LoopActor func scriptClosesPopup() throws {
        let f = HostFixture()
        let session = try f.createSession()
        let main = session.pages[0].id
        let popup = try f.openPopup(from: main)
        let mark = f.mark

        f.reports.pageRequestedClose(popup)

        let events = f.events(after: mark)
        #expect(events.map(\.type) == ["page.closed", "page.updated"])
        #expect(events[0].pageID == popup.rawValue)
        #expect(events[0].closeReason == .script)
        #expect(events[1].pageID == main.rawValue)
        #expect(events[1].changes == ["visible": true])
        #expect(f.engine.closedPages == [popup])
        #expect(try f.host.snapshot(of: session.id).order == [main])
        #expect(pagehostError { _ = try f.host.page(popup) }?.code == .notFound)
    }

    @Test("the main page asking to close is refused with page.closeRefused and stays open")
    @LoopActor func scriptCannotCloseMain() throws {
        let f = HostFixture()
        let session = try f.createSession()
        let main = session.pages[0].id
        let mark = f.mark

        f.reports.pageRequestedClose(main)

        let events = f.events(after: mark)
        #expect(events.map(\.type) == ["page.closeRefused"])
        #expect(events.first?.pageID == main.rawValue)
        #expect(f.engine.closedPages.isEmpty)
        #expect(try f.page(main).visible)
        #expect(f.host.pageCount == 1)
    }

    @Test("closePage on the main page throws conflict and the page stays")
    @LoopActor func commandCannotCloseMain() async throws {
        let f = HostFixture()
        let session = try f.createSession()
        let main = session.pages[0].id
        let mark = f.mark
        let error = await pagehostError { try await f.host.closePage(main) }
        #expect(error?.code == .conflict)
        #expect(f.events(after: mark).isEmpty)
        #expect(f.engine.closedPages.isEmpty)
        #expect(try f.host.snapshot(of: session.id).order == [main])
    }

    @Test("closePage on a popup closes it with reason admin")
    @LoopActor func commandClosesPopup() async throws {
        let f = HostFixture()
        let session = try f.createSession()
        let main = session.pages[0].id
        let popup = try f.openPopup(from: main)
        let mark = f.mark
        try await f.host.closePage(popup, in: session.id)
        let events = f.events(after: mark)
        #expect(events.map(\.type) == ["page.closed", "page.updated"])
        #expect(events[0].closeReason == .admin)
        #expect(events[0].forcedClose == false)
        #expect(f.engine.closeRequests == [popup])
        #expect(f.engine.closedPages == [popup])
    }

    @Test("closePage on an unknown page, or on a page of another session, is not_found")
    @LoopActor func closeUnknown() async throws {
        let f = HostFixture()
        let one = try f.createSession()
        let two = try f.createSession()
        let popup = try f.openPopup(from: one.pages[0].id)
        #expect(await pagehostError { try await f.host.closePage(PageID("p999")) }?.code == .notFound)
        #expect(await pagehostError { try await f.host.closePage(popup, in: two.id) }?.code == .notFound)
        #expect(f.engine.closedPages.isEmpty)
        #expect(try f.page(popup).visible)
    }

    @Test("closing the middle page of a stack of three leaves the other two, the top still visible")
    @LoopActor func closeMiddleOfStack() async throws {
        let f = HostFixture()
        let session = try f.createSession()
        let main = session.pages[0].id
        let middle = try f.openPopup(from: main)
        let top = try f.openPopup(from: middle)
        let mark = f.mark
        try await f.host.closePage(middle)
        // Nobody's visibility changed, so only the close is reported.
        #expect(f.events(after: mark).map(\.type) == ["page.closed"])
        #expect(try f.host.snapshot(of: session.id).order == [main, top])
        #expect(try f.page(top).visible)
        #expect(try f.page(main).visible == false)
        // Pages a closed page opened stay open and still name it as their opener.
        #expect(try f.page(top).openerID == middle)
    }

    @Test("in tabbed mode closing the active tab activates its opener")
    @LoopActor func tabbedCloseActivatesOpener() async throws {
        let f = HostFixture()
        let session = try f.createSession { $0.popupMode = .tabbed }
        let main = session.pages[0].id
        let a = try f.openPopup(from: main)
        let b = try f.openPopup(from: main)
        let mark = f.mark
        try await f.host.closePage(b)
        let events = f.events(after: mark)
        #expect(events.map(\.type) == ["page.closed", "page.updated"])
        #expect(events[1].pageID == main.rawValue)
        #expect(events[1].changes == ["visible": true])
        #expect(try f.page(a).visible == false)
        #expect(try f.host.snapshot(of: session.id).order == [main, a])
    }

    @Test("a popup that asks to close before it shows is dropped without page events")
    @LoopActor func pendingPopupCloses() throws {
        let f = HostFixture()
        let session = try f.createSession { $0.maxPopups = 1 }
        let main = session.pages[0].id
        let popup = try #require(f.reports.popupRequested(by: main, url: "https://a.test/"))
        let mark = f.mark
        f.reports.pageRequestedClose(popup)
        #expect(f.events(after: mark).isEmpty)
        #expect(f.engine.closedPages == [popup])
        f.reports.popupReady(popup, hasOpener: true, windowFeatures: nil)
        #expect(f.events(after: mark).isEmpty)
        // Its slot is free again.
        #expect(f.reports.popupRequested(by: main, url: "https://b.test/") != nil)
    }

    @Test("page.updated carries only the properties that changed")
    @LoopActor func updatesCarryOnlyChanges() throws {
        let f = HostFixture()
        let main = try f.createSession().pages[0].id
        let mark = f.mark
        f.reports.pageChanged(main) {
            $0.title = "Checkout"
            $0.isLoading = true
        }
        f.reports.pageChanged(main) { $0.title = "Checkout" }  // no change: no event
        f.reports.pageChanged(main) { $0.isLoading = false }
        let events = f.events(after: mark)
        #expect(events.map(\.type) == ["page.updated", "page.updated"])
        #expect(events[0].changes == ["title": "Checkout", "isLoading": true])
        #expect(events[1].changes == ["isLoading": false])
        #expect(try f.page(main).title == "Checkout")
    }
}
