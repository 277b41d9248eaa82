import PagehostCore
import Testing

/// Floods and loops end in bounded, reported states: counted events, suppressed dialogs, cut text.
@Suite("Hostile pages")
struct HostileInputTests {
    init() { startLoop() }

    static func limits() -> HostLimits {
        var limits = HostLimits()
        limits.refusalReportInterval = .milliseconds(100)
        limits.dialogLimit = 3
        limits.dialogWindow = .seconds(10)
        limits.maxTextLength = 64
        return limits
    }

    @Test("a popup flood holds the cap and is reported as a few counted events")
    @LoopActor func popupFlood() async throws {
        let f = HostFixture(limits: Self.limits())
        let session = try f.createSession { $0.maxPopups = 2 }
        let main = session.pages[0].id
        let mark = f.mark
        var allowed = 0
        for i in 0..<1000 where f.reports.popupRequested(by: main, url: "https://flood.test/\(i)") != nil {
            allowed += 1
        }
        #expect(allowed == 2)
        #expect(try await waitUntil(timeout: .seconds(30)) { f.events(after: mark).filter { $0.type == "popup.blocked" }.count >= 2 })
        let blocked = f.events(after: mark).filter { $0.type == "popup.blocked" }
        #expect(blocked.count == 2)
        #expect(blocked.compactMap { $0.json["count"]?.intValue }.reduce(0, +) == 998)
        #expect(blocked.last?.json["url"] == "https://flood.test/999")
        #expect(blocked.last?.json["reason"] == "limit")
    }

    @Test("refusals still being counted are reported before session.closed")
    @LoopActor func flushOnClose() throws {
        let f = HostFixture(limits: Self.limits())
        let session = try f.createSession { $0.popupPolicy = .block }
        let main = session.pages[0].id
        let mark = f.mark
        for _ in 0..<5 { _ = f.reports.popupRequested(by: main, url: "https://x.test/") }
        try f.host.closeSession(session.id)
        let events = f.events(after: mark)
        #expect(events.filter { $0.type == "popup.blocked" }.compactMap { $0.json["count"]?.intValue } == [1, 4])
        #expect(events.last?.type == "session.closed")
    }

    @Test("a dialog loop is suppressed past the limit, counted, and lifted by a navigation")
    @LoopActor func dialogLoop() async throws {
        let f = HostFixture(limits: Self.limits())
        let main = try f.createSession().pages[0].id
        let mark = f.mark
        var shown = 0
        for i in 0..<200 {
            if let id = f.reports.dialogRequested(on: main, kind: .alert, message: "loop \(i)", defaultText: nil) {
                shown += 1
                try f.host.answerDialog(id, with: DialogAnswer(accept: true))
            }
        }
        #expect(shown == 3)
        #expect(try await waitUntil(timeout: .seconds(30)) { f.events(after: mark).filter { $0.type == "dialog.suppressed" }.count >= 2 })
        let suppressed = f.events(after: mark).filter { $0.type == "dialog.suppressed" }
        #expect(suppressed.compactMap { $0.json["count"]?.intValue }.reduce(0, +) == 197)
        #expect(suppressed.first?.json["kind"] == "alert")
        // A new document may show dialogs again.
        f.reports.pageChanged(main) { $0.navigation = Navigation(id: 2, event: .committed) }
        #expect(f.reports.dialogRequested(on: main, kind: .alert, message: "again", defaultText: nil) != nil)
    }

    @Test("a popup closing while its suppressed dialogs are being counted reports the count before page.closed")
    @LoopActor func suppressedDialogsOfAClosingPopup() async throws {
        let f = HostFixture(limits: Self.limits())
        let main = try f.createSession().pages[0].id
        let popup = try f.openPopup(from: main)
        for i in 0..<50 {
            if let id = f.reports.dialogRequested(on: popup, kind: .confirm, message: "\(i)", defaultText: nil) {
                try f.host.answerDialog(id, with: .dismiss)
            }
        }
        let mark = f.mark
        f.reports.pageRequestedClose(popup)
        let events = f.events(after: mark)
        let types = events.map(\.type)
        let suppressed = try #require(types.firstIndex(of: "dialog.suppressed"), "\(types)")
        #expect(suppressed < (types.firstIndex(of: "page.closed") ?? 0))
        #expect((events[suppressed].json["count"]?.intValue ?? 0) > 0)
    }

    @Test("huge titles, URLs and dialog messages are cut, with truncated: true")
    @LoopActor func hugeValues() throws {
        let f = HostFixture(limits: Self.limits())
        let main = try f.createSession().pages[0].id
        let mark = f.mark
        let huge = String(repeating: "t", count: 10 * 1024 * 1024)
        f.reports.pageChanged(main) {
            $0.title = huge
            $0.url = "https://example.com/" + String(repeating: "u", count: 100 * 1024)
        }
        let page = try f.page(main)
        #expect(page.title.count == 64)
        #expect(page.url.count == 64)
        #expect(page.truncated)
        let update = try #require(f.events(after: mark).last)
        #expect(update.json.serialized.utf8.count < 1024)
        #expect(update.changes?["truncated"] == true)
        // The same huge title again changes nothing.
        let again = f.mark
        f.reports.pageChanged(main) { $0.title = huge }
        #expect(f.events(after: again).isEmpty)

        let id = try #require(f.reports.dialogRequested(on: main, kind: .prompt, message: huge, defaultText: huge))
        let dialog = try #require(f.host.pendingDialog(id))
        #expect(dialog.message.count == 64)
        #expect(dialog.defaultText?.count == 64)
        #expect(dialog.truncated)
    }

    @Test("onCrash close closes a crashed popup, and a crashed main page closes its session")
    @LoopActor func crashClose() async throws {
        let f = HostFixture()
        let session = try f.createSession { $0.onCrash = .close }
        let main = session.pages[0].id
        let popup = try f.openPopup(from: main)
        let mark = f.mark
        f.reports.webProcessTerminated(popup, reason: "crashed")
        #expect(try await waitUntil(timeout: .seconds(30)) { f.events(after: mark).contains { $0.closeReason == .crash } })
        f.reports.webProcessTerminated(main, reason: "crashed")
        #expect(try await waitUntil(timeout: .seconds(30)) { f.events(after: mark).contains { $0.type == "session.closed" } })
        #expect(f.events(after: mark).last?.json["reason"] == "crash")
    }

    @Test("onCrash reload reloads a crashed page a bounded number of times; an asked-for termination is no crash")
    @LoopActor func crashReload() async throws {
        let f = HostFixture()
        let main = try f.createSession { $0.onCrash = .reload; $0.maxCrashReloads = 2 }.pages[0].id
        f.reports.webProcessTerminated(main, reason: "terminatedByAPI")
        for _ in 0..<4 {
            f.reports.webProcessTerminated(main, reason: "crashed")
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try await waitUntil(timeout: .seconds(30)) { f.engine.historyActions.count >= 2 })
        try await Task.sleep(for: .milliseconds(50))
        #expect(f.engine.historyActions.map(\.0) == [.reload, .reload])
    }
}
