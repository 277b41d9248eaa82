import Foundation
import MainLoop
import PagehostCore
import Testing
import WebKitEngine

/// An admin close of a popup that traps `beforeunload`, in real WebKit: the page gets its "Leave page?" dialog,
/// and the popup closes whatever it answers — `forced` unless it agreed.
@Suite
struct BeforeUnloadCloseTests {
    init() { MainLoop.shared.start() }

    static let server = try! TestHTTPServer { path in
        switch path {
        case "/trap":
            // WebKit shows a beforeunload dialog only for a page the user interacted with: the test clicks it.
            return .init(body: """
                <title>trap</title><button id=b style='width:100px;height:40px'>b</button>
                <script>
                  window.clicked = false;
                  document.getElementById('b').addEventListener('click', () => { window.clicked = true; });
                  window.addEventListener('beforeunload', (e) => { e.preventDefault(); e.returnValue = 'stay'; });
                </script>
                """)
        default: return .init(body: "<title>main</title>")
        }
    }

    /// A session whose main page opened the trap as a popup that a user has clicked.
    @LoopActor
    private func trappedPopup(_ h: EngineHarness) async throws -> (SessionID, PageID) {
        let (session, main) = try await h.openSession(.url(Self.server.origin + "/"))
        _ = try await h.eval(main, "window.open('/trap'); return 1")
        let popup = try await h.waitForPopup()
        try await h.waitForNavigation(popup.id, .finished)
        try await h.host.click("#b", in: popup.id)
        // The click's input events reach the page after `click` returns: the page says when it saw them.
        let clicked = Task { @LoopActor in
            try await h.eval(popup.id, "await new Promise(r => { if (window.clicked) r(); else addEventListener('click', r) }); return 1")
        }
        _ = try await h.value(of: clicked, "the popup saw the click")
        return (session, popup.id)
    }

    /// Starts an admin close and waits for the page's beforeunload dialog.
    @LoopActor
    private func startClose(_ h: EngineHarness, _ session: SessionID, _ popup: PageID) async throws -> (Task<SessionHost.ClosedPage, any Error>, DialogID) {
        let closing = Task { @LoopActor in try await h.host.closePage(popup, in: session) }
        let opened = try await h.waitForEvent("the popup's beforeunload dialog") {
            if case .dialogOpened(let dialog) = $0.payload { dialog.pageID == popup && dialog.kind == .beforeunload } else { false }
        }
        guard case .dialogOpened(let dialog) = opened.payload else { throw HarnessError.timedOut("dialog") }
        #expect(try h.host.page(popup).dialog?.id == dialog.id, "the popup stays open while it is asked")
        return (closing, dialog.id)
    }

    @LoopActor private func closedEvent(_ h: EngineHarness, _ popup: PageID) -> Event? {
        h.events.first { if case .pageClosed(_, let id, _, _) = $0.payload { id == popup } else { false } }
    }

    @Test @LoopActor func answeringLeaveClosesItWithoutForcing() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (session, popup) = try await trappedPopup(h)
        let (closing, dialog) = try await startClose(h, session, popup)
        try h.host.answerDialog(dialog, with: DialogAnswer(accept: true))
        let closed = try await h.value(of: closing, "the close")
        #expect(closed.forced == false)
        #expect(closedEvent(h, popup)?.json["reason"] == .string("admin"))
        #expect(closedEvent(h, popup)?.json["forced"] == .bool(false))
        #expect(try h.host.snapshot(of: session).pages.count == 1)
    }

    @Test @LoopActor func answeringStayStillClosesItForced() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (session, popup) = try await trappedPopup(h)
        let (closing, dialog) = try await startClose(h, session, popup)
        try h.host.answerDialog(dialog, with: .dismiss)
        let closed = try await h.value(of: closing, "the close")
        #expect(closed.forced)
        #expect(closedEvent(h, popup)?.json["forced"] == .bool(true))
        #expect(try h.host.snapshot(of: session).pages.count == 1)
        // The main page, in the same web process, goes on working.
        let main = try h.host.snapshot(of: session).order[0]
        #expect(try await h.eval(main, "return document.title") == "main")
    }

    @Test @LoopActor func noAnswerClosesItForcedAfterTheGracePeriod() async throws {
        var limits = HostLimits()
        limits.closeGracePeriod = .seconds(1)
        let h = try EngineHarness.make(limits: limits)
        defer { h.tearDown() }
        let (session, popup) = try await trappedPopup(h)
        let (closing, dialog) = try await startClose(h, session, popup)
        let closed = try await h.value(of: closing, "the close")
        #expect(closed.forced)
        let dismissed = h.events.first { if case .dialogClosed(let d, _, let by) = $0.payload { d.id == dialog && by == .pageClosed } else { false } }
        #expect(dismissed != nil, "the waiting dialog is dismissed because its page closed")
        #expect(closedEvent(h, popup)?.json["forced"] == .bool(true))
        let main = try h.host.snapshot(of: session).order[0]
        #expect(try await h.eval(main, "return document.title") == "main")
    }
}
