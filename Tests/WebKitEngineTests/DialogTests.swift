import MainLoop
import PagehostCore
import Testing
import WebKitEngine

/// alert, confirm and prompt: the page's script waits until the dialog is answered, later, from outside.
@Suite
struct DialogTests {
    init() { MainLoop.shared.start() }

    /// Evaluates `call` (an expression showing dialogs) in the page without waiting for it: the evaluation
    /// itself waits until every dialog it shows is answered, then returns what the script saw.
    @LoopActor func start(_ h: EngineHarness, in page: PageID, _ call: String) -> Task<JSONValue, any Error> {
        Task { @LoopActor in try await h.eval(page, "return \(call)") }
    }

    @LoopActor func nextDialog(_ h: EngineHarness, after seq: UInt64 = 0) async throws -> Dialog {
        let event = try await h.waitForEvent("dialog.opened", after: seq) { $0.type == "dialog.opened" }
        guard case .dialogOpened(let dialog) = event.payload else { throw HarnessError.timedOut("dialog") }
        return dialog
    }

    @Test @LoopActor func confirmWaitsForAnAnswerGivenLater() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (_, main) = try await h.openSession(.html("<title>d</title>", baseURL: "http://127.0.0.1/"))
        let script = start(h, in: main, "confirm('Pay now?')")
        let dialog = try await nextDialog(h)
        #expect(dialog.kind == .confirm)
        #expect(dialog.message == "Pay now?")
        #expect(try h.host.page(main).dialog?.id == dialog.id)
        // The script is suspended until this answer, given later from outside; what it sees proves it waited.
        try h.host.answerDialog(dialog.id, with: DialogAnswer(accept: true))
        #expect(try await h.value(of: script, "the script's answer") == true)
        #expect(try h.host.page(main).dialog == nil)
        let closed = try await h.waitForEvent("dialog.closed") { $0.type == "dialog.closed" }
        guard case .dialogClosed(_, let given, let by) = closed.payload else { return }
        #expect(given.accept)
        #expect(by == .command)
    }

    @Test @LoopActor func whileADialogWaitsEvaluationIsRefusedAndScreenshotsStillAnswer() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (_, main) = try await h.openSession(.html("<title>d</title><body style='background:#0a0'>", baseURL: "http://127.0.0.1/"))
        let script = start(h, in: main, "confirm('Still there?')")
        let dialog = try await nextDialog(h)
        do {
            _ = try await h.eval(main, "return 1")
            Issue.record("evaluation should be refused while the dialog waits")
        } catch let error as PagehostError {
            #expect(error.code == .conflict)
            #expect(error.message.contains(dialog.id.rawValue))
        }
        // The web process cannot paint while the script waits: the screenshot comes from the UI process.
        let png = try await h.host.screenshot(main)
        #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        try h.host.answerDialog(dialog.id, with: DialogAnswer(accept: true))
        #expect(try await h.value(of: script, "the script's answer") == true)
        #expect(try await h.eval(main, "return 1") == 1)
    }

    @Test @LoopActor func confirmCancelledIsFalse() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (_, main) = try await h.openSession(.html("<title>d</title>", baseURL: "http://127.0.0.1/"))
        let script = start(h, in: main, "confirm('Leave?')")
        let dialog = try await nextDialog(h)
        try h.host.answerDialog(dialog.id, with: .dismiss)
        #expect(try await h.value(of: script, "the script's answer") == false)
    }

    @Test @LoopActor func promptReceivesTheTextGiven() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (_, main) = try await h.openSession(.html("<title>d</title>", baseURL: "http://127.0.0.1/"))
        let script = start(h, in: main, "prompt('Your name?', 'anonymous')")
        let dialog = try await nextDialog(h)
        #expect(dialog.kind == .prompt)
        #expect(dialog.defaultText == "anonymous")
        try h.host.answerDialog(dialog.id, with: DialogAnswer(accept: true, text: "Ada <Lovelace>"))
        #expect(try await h.value(of: script, "the script's answer") == "Ada <Lovelace>")
    }

    @Test @LoopActor func alertResumesWhenAnswered() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (_, main) = try await h.openSession(.html("<title>d</title>", baseURL: "http://127.0.0.1/"))
        let script = start(h, in: main, "(alert('Saved'), 'after alert')")
        let dialog = try await nextDialog(h)
        #expect(dialog.kind == .alert)
        #expect(dialog.message == "Saved")
        try h.host.answerDialog(dialog.id, with: DialogAnswer(accept: true))
        #expect(try await h.value(of: script, "the script's answer") == "after alert")
    }

    @Test @LoopActor func dismissPolicyMakesConfirmFalseAndPromptNull() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        var options = SessionOptions()
        options.dialogPolicy = .dismiss
        let (_, main) = try await h.openSession(.html("<title>d</title>", baseURL: "http://127.0.0.1/"), options: options)
        let script = start(h, in: main, "[confirm('a'), prompt('b', 'default')]")
        #expect(try await h.value(of: script, "the script's answer") == [false, nil])
        #expect(h.events.filter { $0.type == "dialog.closed" }.count == 2)
    }

    @Test @LoopActor func acceptPolicyAnswersPromptsWithTheSessionText() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        var options = SessionOptions()
        options.dialogPolicy = .accept
        options.promptText = "from policy"
        let (_, main) = try await h.openSession(.html("<title>d</title>", baseURL: "http://127.0.0.1/"), options: options)
        let script = start(h, in: main, "[confirm('a'), prompt('b', 'default')]")
        #expect(try await h.value(of: script, "the script's answer") == [true, "from policy"])
    }

    @Test @LoopActor func closingThePageDismissesItsDialog() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (session, _) = try await h.openSession(.html("<title>d</title>", baseURL: "http://127.0.0.1/"))
        let main = try h.host.snapshot(of: session).order[0]
        let script = start(h, in: main, "confirm('stuck?')")
        let dialog = try await nextDialog(h)
        try h.host.closeSession(session)
        script.cancel()
        let closed = try await h.waitForEvent("dialog.closed") { $0.type == "dialog.closed" }
        guard case .dialogClosed(let d, let given, let by) = closed.payload else { return }
        #expect(d.id == dialog.id)
        #expect(given.accept == false)
        #expect(by == .pageClosed)
        #expect(h.host.pendingDialog(dialog.id) == nil)
    }
}
