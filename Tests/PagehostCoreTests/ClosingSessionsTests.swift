import PagehostCore
import Testing

/// Closing a whole session: pending dialogs are dismissed, every page closes, then the session.
@Suite("Closing sessions")
struct ClosingSessionsTests {
    init() { startLoop() }

    @Test("closing a session dismisses its dialogs, closes its pages top first, then announces session.closed")
    @LoopActor func closeSession() throws {
        let f = HostFixture()
        let session = try f.createSession()
        let other = try f.createSession()
        let main = session.pages[0].id
        let a = try f.openPopup(from: main)
        let b = try f.openPopup(from: a)
        let pending = try #require(f.reports.popupRequested(by: b, url: "https://later.test/"))
        let onMain = try #require(f.reports.dialogRequested(on: main, kind: .alert, message: "1", defaultText: nil))
        let onB = try #require(f.reports.dialogRequested(on: b, kind: .prompt, message: "2", defaultText: "x"))
        let mark = f.mark

        try f.host.closeSession(session.id)

        let events = f.events(after: mark)
        #expect(events.map(\.type) == [
            "page.updated", "dialog.closed", "page.updated", "dialog.closed",
            "page.closed", "page.closed", "page.closed", "session.closed",
        ])
        let dismissed = events.compactMap { event -> (DialogID, DialogAnswer, DialogAnsweredBy)? in
            guard case .dialogClosed(let dialog, let answer, let by) = event.payload else { return nil }
            return (dialog.id, answer, by)
        }
        #expect(dismissed.map(\.0) == [onMain, onB])
        #expect(dismissed.allSatisfy { $0.1 == .dismiss && $0.2 == .pageClosed })
        #expect(f.engine.answers == [.init(dialog: onMain, answer: .dismiss), .init(dialog: onB, answer: .dismiss)])

        let closed = events.filter { $0.type == "page.closed" }
        #expect(closed.map(\.pageID) == [b.rawValue, a.rawValue, main.rawValue])
        #expect(closed.allSatisfy { $0.closeReason == .session })
        // No visibility shuffling while the session goes.
        #expect(!events.contains { $0.changes?["visible"] != nil })
        #expect(events.allSatisfy { $0.sessionID == session.id })

        #expect(Set(f.engine.closedPages) == [pending, b, a, main])
        #expect(f.engine.closedPages.count == 4)
        #expect(f.engine.closedSessions == [session.id])
        #expect(f.host.sessionCount == 1)
        #expect(f.host.snapshots.map(\.id) == [other.id])
        #expect(pagehostError { _ = try f.host.snapshot(of: session.id) }?.code == .notFound)
        #expect(pagehostError { _ = try f.host.page(main) }?.code == .notFound)
        #expect(f.host.pendingDialog(onMain) == nil)

        // The engine's late reports about the gone session change nothing.
        let after = f.mark
        f.reports.popupReady(pending, hasOpener: true, windowFeatures: nil)
        f.reports.pageChanged(main) { $0.title = "late" }
        f.reports.pageRequestedClose(a)
        #expect(f.reports.popupRequested(by: main, url: "https://x.test/") == nil)
        #expect(f.events(after: after).isEmpty)
    }

    @Test("pending dialogs are dismissed in the order they opened, past d9 too")
    @LoopActor func dismissOrder() throws {
        let f = HostFixture()
        let session = try f.createSession()
        var pages = [session.pages[0].id]
        for _ in 0..<10 { pages.append(try f.openPopup(from: pages[pages.count - 1])) }
        let dialogs = try pages.map { page in
            try #require(f.reports.dialogRequested(on: page, kind: .alert, message: "", defaultText: nil))
        }
        #expect(dialogs.map(\.rawValue).contains("d10"))
        let mark = f.mark
        try f.host.closeSession(session.id)
        let dismissed = f.events(after: mark).compactMap { event -> DialogID? in
            guard case .dialogClosed(let dialog, _, _) = event.payload else { return nil }
            return dialog.id
        }
        #expect(dismissed == dialogs)
        #expect(f.engine.answers.map(\.dialog) == dialogs)
    }

    @Test("closing an unknown session is not_found")
    @LoopActor func unknownSession() throws {
        let f = HostFixture()
        _ = try f.createSession()
        #expect(pagehostError { try f.host.closeSession(SessionID("s99")) }?.code == .notFound)
        #expect(f.host.sessionCount == 1)
    }

    @Test("closeAllSessions closes every session")
    @LoopActor func closeAll() throws {
        let f = HostFixture()
        let one = try f.createSession()
        let two = try f.createSession()
        f.host.closeAllSessions()
        #expect(f.host.sessionCount == 0)
        #expect(f.host.pageCount == 0)
        #expect(Set(f.engine.closedSessions) == [one.id, two.id])
    }
}
