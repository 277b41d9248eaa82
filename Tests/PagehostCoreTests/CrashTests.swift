import PagehostCore
import Testing

/// A page's web process going away: the page stays, marked crashed.
@Suite("Crashed pages")
struct CrashTests {
    init() { startLoop() }

    @Test("a terminated web process marks the page crashed and emits page.crashed")
    @LoopActor func crash() throws {
        let f = HostFixture()
        let session = try f.createSession()
        let main = session.pages[0].id
        f.reports.pageChanged(main) { $0.isLoading = true }
        let mark = f.mark

        f.reports.webProcessTerminated(main, reason: "out of memory")

        let events = f.events(after: mark)
        #expect(events.map(\.type) == ["page.updated", "page.crashed"])
        #expect(events[0].changes == ["isLoading": false, "crashed": true])
        guard case .pageCrashed(let sid, let page, let reason) = events[1].payload else { return }
        #expect(sid == session.id)
        #expect(page == main)
        #expect(reason == "out of memory")
        #expect(try f.page(main).crashed)
        // It is not closed.
        #expect(try f.host.snapshot(of: session.id).order == [main])
        #expect(f.engine.closedPages.isEmpty)
    }

    @Test("a crash dismisses the dialog the page was waiting on")
    @LoopActor func crashDismissesDialog() throws {
        let f = HostFixture()
        let main = try f.createSession().pages[0].id
        let dialog = try #require(f.reports.dialogRequested(on: main, kind: .confirm, message: "?", defaultText: nil))
        let mark = f.mark
        f.reports.webProcessTerminated(main, reason: "crashed")
        let events = f.events(after: mark)
        #expect(events.map(\.type) == ["page.updated", "dialog.closed", "page.updated", "page.crashed"])
        guard case .dialogClosed(_, let answer, let by) = events[1].payload else { return }
        #expect(answer == .dismiss)
        #expect(by == .pageClosed)
        #expect(f.engine.answers == [.init(dialog: dialog, answer: .dismiss)])
        #expect(f.host.pendingDialog(dialog) == nil)
    }

    @Test("a crash report for an unknown page changes nothing")
    @LoopActor func unknownPage() throws {
        let f = HostFixture()
        _ = try f.createSession()
        let mark = f.mark
        f.reports.webProcessTerminated(PageID("nowhere"), reason: "crashed")
        #expect(f.events(after: mark).isEmpty)
    }
}
