import PagehostCore
import Testing

/// JavaScript dialogs: the page's script waits until the session's policy or a command answers.
@Suite("Dialogs")
struct DialogTests {
    init() { startLoop() }

    @Test("with policy ask a dialog waits until answerDialog, then closes by command")
    @LoopActor func askWaitsForCommand() async throws {
        let f = HostFixture()
        let session = try f.createSession()
        let main = session.pages[0].id
        let mark = f.mark

        let id = try #require(f.reports.dialogRequested(on: main, kind: .confirm, message: "Pay 10 €?", defaultText: nil))

        let opened = f.events(after: mark)
        // The page shows the dialog before `dialog.opened`, so a listener answering at once sees it.
        #expect(opened.map(\.type) == ["page.updated", "dialog.opened"])
        guard case .dialogOpened(let dialog) = opened.last?.payload else { return }
        #expect(dialog == Dialog(id: id, pageID: main, sessionID: session.id, kind: .confirm, message: "Pay 10 €?",
                                 defaultText: nil))
        #expect(opened[0].changes == ["dialog": dialog.json])
        #expect(try f.page(main).dialog == dialog)
        #expect(f.host.pendingDialog(id) == dialog)

        // Give any answer that might be on its way the chance to arrive: none may.
        try await Task.sleep(for: .milliseconds(50))
        #expect(f.engine.answers.isEmpty)
        #expect(f.host.pendingDialog(id) != nil)

        let beforeAnswer = f.mark
        try f.host.answerDialog(id, with: DialogAnswer(accept: true))
        let closed = f.events(after: beforeAnswer)
        #expect(closed.map(\.type) == ["page.updated", "dialog.closed"])
        #expect(closed[0].changes == ["dialog": nil])
        guard case .dialogClosed(let answered, let answer, let by) = closed.last?.payload else { return }
        #expect(answered.id == id)
        #expect(answer == DialogAnswer(accept: true))
        #expect(by == .command)
        #expect(f.engine.answers == [.init(dialog: id, answer: DialogAnswer(accept: true))])
        #expect(f.host.pendingDialog(id) == nil)
        #expect(try f.page(main).dialog == nil)

        // Answered once only.
        #expect(pagehostError { try f.host.answerDialog(id, with: .dismiss) }?.code == .notFound)
        #expect(f.engine.answers.count == 1)
    }

    @Test("a prompt answered by command gets the command's text, or its default text when none is given")
    @LoopActor func promptTextByCommand() throws {
        let f = HostFixture()
        let main = try f.createSession().pages[0].id
        let first = try #require(f.reports.dialogRequested(on: main, kind: .prompt, message: "Name?", defaultText: "Ann"))
        try f.host.answerDialog(first, with: DialogAnswer(accept: true, text: "Bob"))
        let second = try #require(f.reports.dialogRequested(on: main, kind: .prompt, message: "Name?", defaultText: "Ann"))
        try f.host.answerDialog(second, with: DialogAnswer(accept: true))
        let third = try #require(f.reports.dialogRequested(on: main, kind: .prompt, message: "Name?", defaultText: "Ann"))
        try f.host.answerDialog(third, with: DialogAnswer(accept: false, text: "ignored"))
        #expect(f.engine.answers == [
            .init(dialog: first, answer: DialogAnswer(accept: true, text: "Bob")),
            .init(dialog: second, answer: DialogAnswer(accept: true, text: "Ann")),
            .init(dialog: third, answer: DialogAnswer(accept: false, text: nil)),
        ])
    }

    @Test("text given with an answer to anything but a prompt is dropped")
    @LoopActor func textOnlyForPrompts() throws {
        let f = HostFixture()
        let main = try f.createSession().pages[0].id
        let alert = try #require(f.reports.dialogRequested(on: main, kind: .alert, message: "Hi", defaultText: "x"))
        try f.host.answerDialog(alert, with: DialogAnswer(accept: true, text: "stray"))
        #expect(f.engine.answers == [.init(dialog: alert, answer: DialogAnswer(accept: true, text: nil))])
        guard case .dialogOpened(let dialog) = f.host.events.events(after: 0)?.first(where: { $0.type == "dialog.opened" })?.payload
        else { return }
        #expect(dialog.defaultText == nil)
    }

    @Test("policy accept answers after dialogRequested returns, OK with the prompt's default text")
    @LoopActor func acceptPolicyIsAsynchronous() async throws {
        let f = HostFixture()
        let main = try f.createSession { $0.dialogPolicy = .accept }.pages[0].id
        let mark = f.mark
        let id = try #require(f.reports.dialogRequested(on: main, kind: .prompt, message: "Name?", defaultText: "Ann"))
        // Not inside the engine's callback.
        #expect(f.engine.answers.isEmpty)
        #expect(f.host.pendingDialog(id) != nil)

        #expect(try await waitUntil { !f.engine.answers.isEmpty })
        #expect(f.engine.answers == [.init(dialog: id, answer: DialogAnswer(accept: true, text: "Ann"))])
        let closed = f.events(after: mark).filter { $0.type == "dialog.closed" }
        #expect(closed.count == 1)
        guard case .dialogClosed(_, let answer, let by) = closed.first?.payload else { return }
        #expect(by == .policy)
        #expect(answer == DialogAnswer(accept: true, text: "Ann"))
        #expect(try f.page(main).dialog == nil)
    }

    @Test("policy accept gives a prompt the session's promptText when it has one")
    @LoopActor func acceptPolicyPromptText() async throws {
        let f = HostFixture()
        let main = try f.createSession {
            $0.dialogPolicy = .accept
            $0.promptText = "from the session"
        }.pages[0].id
        let id = try #require(f.reports.dialogRequested(on: main, kind: .prompt, message: "?", defaultText: "Ann"))
        #expect(f.engine.answers.isEmpty)
        #expect(try await waitUntil { !f.engine.answers.isEmpty })
        #expect(f.engine.answers == [.init(dialog: id, answer: DialogAnswer(accept: true, text: "from the session"))])
    }

    @Test("policy accept gives a prompt without default text the empty string")
    @LoopActor func acceptPolicyEmptyDefault() async throws {
        let f = HostFixture()
        let main = try f.createSession { $0.dialogPolicy = .accept }.pages[0].id
        let id = try #require(f.reports.dialogRequested(on: main, kind: .prompt, message: "?", defaultText: nil))
        #expect(try await waitUntil { !f.engine.answers.isEmpty })
        #expect(f.engine.answers == [.init(dialog: id, answer: DialogAnswer(accept: true, text: ""))])
    }

    @Test("policy dismiss answers Cancel after dialogRequested returns", arguments: Dialog.Kind.allCases)
    @LoopActor func dismissPolicy(kind: Dialog.Kind) async throws {
        let f = HostFixture()
        let main = try f.createSession { $0.dialogPolicy = .dismiss }.pages[0].id
        let mark = f.mark
        let id = try #require(f.reports.dialogRequested(on: main, kind: kind, message: "?", defaultText: "Ann"))
        #expect(f.engine.answers.isEmpty)
        #expect(try await waitUntil { !f.engine.answers.isEmpty })
        #expect(f.engine.answers == [.init(dialog: id, answer: DialogAnswer(accept: false, text: nil))])
        guard case .dialogClosed(_, _, let by) = f.events(after: mark).last?.payload else {
            Issue.record("the last event is not dialog.closed")
            return
        }
        #expect(by == .policy)
    }

    @Test("a dialog whose page closes before the policy answers is answered once, as dismissed")
    @LoopActor func pageClosesBeforePolicy() async throws {
        let f = HostFixture()
        let main = try f.createSession { $0.dialogPolicy = .accept }.pages[0].id
        let popup = try f.openPopup(from: main)
        let id = try #require(f.reports.dialogRequested(on: popup, kind: .confirm, message: "?", defaultText: nil))
        let mark = f.mark
        f.reports.pageRequestedClose(popup)
        #expect(f.engine.answers == [.init(dialog: id, answer: .dismiss)])
        guard case .dialogClosed(_, _, let by) = f.events(after: mark).first(where: { $0.type == "dialog.closed" })?.payload
        else {
            Issue.record("no dialog.closed")
            return
        }
        #expect(by == .pageClosed)
        // The policy's answer, already scheduled, must not answer it a second time.
        try await Task.sleep(for: .milliseconds(50))
        #expect(f.engine.answers.count == 1)
        #expect(f.events(after: mark).filter { $0.type == "dialog.closed" }.count == 1)
    }

    @Test("answering an unknown dialog is not_found")
    @LoopActor func unknownDialog() throws {
        let f = HostFixture()
        _ = try f.createSession()
        #expect(pagehostError { try f.host.answerDialog(DialogID("d42"), with: .dismiss) }?.code == .notFound)
        #expect(f.engine.answers.isEmpty)
    }

    @Test("a page the host does not show gets no dialog")
    @LoopActor func dialogOnUnknownPage() throws {
        let f = HostFixture()
        let main = try f.createSession().pages[0].id
        let pending = try #require(f.reports.popupRequested(by: main, url: "https://a.test/"))
        let mark = f.mark
        #expect(f.reports.dialogRequested(on: PageID("nowhere"), kind: .alert, message: "", defaultText: nil) == nil)
        #expect(f.reports.dialogRequested(on: pending, kind: .alert, message: "", defaultText: nil) == nil)
        #expect(f.events(after: mark).isEmpty)
    }
}
