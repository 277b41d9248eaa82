import PagehostCore
import Testing

/// An admin closing a popup: the page is asked first (`beforeunload`), and closed forced when it does not agree.
/// The test plays the engine: `pagesAgreeToClose = false` leaves the page's answer to it.
@Suite("Admin close")
struct AdminCloseTests {
    init() { startLoop() }

    /// A session with a popup whose engine waits for the test to play the page's answer.
    @LoopActor
    private func popupThatDecides(grace: Duration = .seconds(30)) throws -> (HostFixture, SessionID, PageID) {
        var limits = HostLimits()
        limits.closeGracePeriod = grace
        let f = HostFixture(limits: limits)
        f.engine.pagesAgreeToClose = false
        let session = try f.createSession()
        let popup = try f.openPopup(from: session.pages[0].id)
        return (f, session.id, popup)
    }

    @Test("the page is asked, and when it agrees the close is not forced")
    @LoopActor func pageAgrees() async throws {
        let (f, _, popup) = try popupThatDecides()
        let closing = Task { @LoopActor in try await f.host.closePage(popup) }
        #expect(try await waitUntil(timeout: .seconds(30)) { f.engine.closeRequests == [popup] })
        #expect(f.engine.closedPages.isEmpty, "the page stays open until it answers")
        #expect(try f.page(popup).id == popup)
        let mark = f.mark
        f.reports.pageRequestedClose(popup)  // WebKit's `close` after the page's beforeunload handlers ran
        let outcome = try await closing.value
        #expect(outcome.id == popup)
        #expect(outcome.forced == false)
        let closed = try #require(f.events(after: mark).first { $0.type == "page.closed" })
        #expect(closed.closeReason == .admin)
        #expect(closed.forcedClose == false)
        #expect(closed.json["forced"] == .bool(false))
        #expect(f.engine.closedPages == [popup])
    }

    @Test("a beforeunload dialog answered Leave closes the page, not forced")
    @LoopActor func beforeunloadLeave() async throws {
        let (f, sid, popup) = try popupThatDecides()
        let closing = Task { @LoopActor in try await f.host.closePage(popup, in: sid) }
        #expect(try await waitUntil(timeout: .seconds(30)) { f.engine.closeRequests == [popup] })
        let dialog = try #require(f.reports.dialogRequested(on: popup, kind: .beforeunload, message: "", defaultText: nil))
        try f.host.answerDialog(dialog, with: DialogAnswer(accept: true))
        #expect(f.engine.answers.map(\.dialog) == [dialog])
        f.reports.pageRequestedClose(popup)  // the page agreed
        #expect(try await closing.value.forced == false)
        #expect(f.engine.closedPages == [popup])
    }

    @Test("a beforeunload dialog answered Stay closes the page at once, forced")
    @LoopActor func beforeunloadStay() async throws {
        let (f, sid, popup) = try popupThatDecides()
        let mark = f.mark
        let closing = Task { @LoopActor in try await f.host.closePage(popup, in: sid) }
        #expect(try await waitUntil(timeout: .seconds(30)) { f.engine.closeRequests == [popup] })
        let dialog = try #require(f.reports.dialogRequested(on: popup, kind: .beforeunload, message: "", defaultText: nil))
        try f.host.answerDialog(dialog, with: .dismiss)
        #expect(try await closing.value.forced == true)
        let events = f.events(after: mark)
        #expect(events.map(\.type) == ["page.updated", "dialog.opened", "page.updated", "dialog.closed", "page.closed", "page.updated"])
        let answered = try #require(events.first { $0.type == "dialog.closed" })
        #expect(answered.json["by"] == .string("command"), "the operator's Stay is what the page heard")
        let closed = try #require(events.first { $0.type == "page.closed" })
        #expect(closed.closeReason == .admin)
        #expect(closed.forcedClose == true)
        #expect(f.engine.closedPages == [popup])
    }

    @Test("a page that does not answer is closed forced after the grace period, its dialog dismissed")
    @LoopActor func graceRunsOut() async throws {
        let (f, sid, popup) = try popupThatDecides(grace: .milliseconds(300))
        let closing = Task { @LoopActor in try await f.host.closePage(popup, in: sid) }
        #expect(try await waitUntil(timeout: .seconds(30)) { f.engine.closeRequests == [popup] })
        let dialog = try #require(f.reports.dialogRequested(on: popup, kind: .beforeunload, message: "", defaultText: nil))
        let mark = f.mark
        #expect(try await closing.value.forced == true)
        let events = f.events(after: mark)
        let answered = try #require(events.first { $0.type == "dialog.closed" })
        #expect(answered.json["dialogId"] == .string(dialog.rawValue))
        #expect(answered.json["by"] == .string("pageClosed"))
        #expect(events.first { $0.type == "page.closed" }?.forcedClose == true)
        #expect(f.host.pendingDialog(dialog) == nil)
        #expect(f.engine.closedPages == [popup])
    }

    @Test("an unresponsive page is closed forced at once, without asking it")
    @LoopActor func unresponsive() async throws {
        let (f, sid, popup) = try popupThatDecides()
        f.reports.pageChanged(popup) { $0.responsive = false }
        let closed = try await f.host.closePage(popup, in: sid)
        #expect(closed.forced)
        #expect(f.engine.closeRequests.isEmpty)
        #expect(f.engine.closedPages == [popup])
    }

    @Test("while a dialog waits in the session its pages cannot answer: the close is forced at once")
    @LoopActor func dialogWaitsInSession() async throws {
        let (f, sid, popup) = try popupThatDecides()
        let main = try f.host.snapshot(of: sid).pages[0].id
        let alert = try #require(f.reports.dialogRequested(on: main, kind: .alert, message: "wait", defaultText: nil))
        let closed = try await f.host.closePage(popup, in: sid)
        #expect(closed.forced)
        #expect(f.engine.closeRequests.isEmpty)
        #expect(f.host.pendingDialog(alert) != nil, "the other page's dialog still waits")
    }

    @Test("two closes of one page ask it once and both learn the outcome")
    @LoopActor func twoCloses() async throws {
        let (f, sid, popup) = try popupThatDecides()
        let mark = f.mark
        let first = Task { @LoopActor in try await f.host.closePage(popup, in: sid) }
        let second = Task { @LoopActor in try await f.host.closePage(popup, in: sid) }
        #expect(try await waitUntil(timeout: .seconds(30)) { !f.engine.closeRequests.isEmpty })
        // Both tasks ran up to their wait before the loop came back to this test (the loop runs jobs in order).
        f.reports.pageRequestedClose(popup)
        #expect(try await first.value.forced == false)
        #expect(try await second.value.forced == false)
        #expect(f.engine.closeRequests == [popup])
        #expect(f.events(after: mark).filter { $0.type == "page.closed" }.count == 1)
    }

    @Test("a session closing during an admin close closes the page with it and ends the close")
    @LoopActor func sessionClosesMeanwhile() async throws {
        let (f, sid, popup) = try popupThatDecides()
        let mark = f.mark
        let closing = Task { @LoopActor in try await f.host.closePage(popup, in: sid) }
        #expect(try await waitUntil(timeout: .seconds(30)) { f.engine.closeRequests == [popup] })
        try f.host.closeSession(sid)
        #expect(try await closing.value.forced == false)
        let closed = try #require(f.events(after: mark).first { $0.type == "page.closed" && $0.pageID == popup.rawValue })
        #expect(closed.closeReason == .session)
    }
}
