import Foundation
import MainLoop
import PagehostCore
import Testing
import WebKitEngine

/// Pages nobody here wrote: floods, loops, huge values, endless responses, busy loops. Each ends in a
/// bounded, reported state and the rest keeps serving.
@Suite
struct HostilePageTests {
    init() { MainLoop.shared.start() }

    static let server = try! TestHTTPServer { path in
        switch path {
        case "/loop": return .init(status: 302, headers: [("Location", "/loop")])
        default: return .init(body: "<title>ok</title>")
        }
    }

    @Test @LoopActor func aPopupFloodHoldsTheCapAndIsCounted() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        var options = SessionOptions()
        options.maxPopups = 5
        let (_, main) = try await h.openSession(.html("<title>flood</title>", baseURL: "http://127.0.0.1/"), options: options)
        let nulls = try await h.eval(main, """
            let nulls = 0;
            for (let i = 0; i < 1000; i++) { if (window.open('about:blank#' + i) === null) nulls++; }
            return nulls;
            """)
        #expect(nulls == 995)
        try await h.waitUntil("every refusal counted") {
            h.events.filter { $0.type == "popup.blocked" }.compactMap { $0.json["count"]?.intValue }.reduce(0, +) == 995
        }
        // One event now, then one per second at most: a handful, not a thousand.
        #expect(h.events.filter { $0.type == "popup.blocked" }.count <= 4)
        #expect(try await h.waitForPopup(count: 5).role == .popup)
    }

    @Test @LoopActor func aDialogLoopIsSuppressedAndTheScriptGoesOn() async throws {
        var limits = HostLimits()
        limits.dialogLimit = 5
        let h = try EngineHarness.make(limits: limits)
        defer { h.tearDown() }
        var options = SessionOptions()
        options.dialogPolicy = .accept
        let (_, main) = try await h.openSession(.html("<title>loop</title>", baseURL: "http://127.0.0.1/"), options: options)
        let finished = try await h.eval(main, "for (let i = 0; i < 300; i++) alert('again ' + i); return 'done'")
        #expect(finished == "done")
        #expect(h.events.filter { $0.type == "dialog.opened" }.count == 5)
        try await h.waitUntil("every suppressed dialog counted") {
            h.events.filter { $0.type == "dialog.suppressed" }.compactMap { $0.json["count"]?.intValue }.reduce(0, +) == 295
        }
    }

    @Test @LoopActor func aTenMegabyteTitleAndAHundredKilobyteURLAreCut() async throws {
        // WebKit itself hands over at most 1024 characters of a title; the host's bound is set below that
        // here so the cut is pagehost's own.
        var limits = HostLimits()
        limits.maxTextLength = 256
        let h = try EngineHarness.make(limits: limits)
        defer { h.tearDown() }
        let (_, main) = try await h.openSession(.html("<title>t</title>", baseURL: "http://127.0.0.1/"))
        _ = try await h.eval(main, "document.title = 'x'.repeat(10 * 1024 * 1024); return 1")
        try await h.waitUntil("the title is cut") { (try? h.host.page(main).truncated) == true }
        #expect(try h.host.page(main).title.count == 256)
        _ = try await h.eval(main, "document.title = 'short'; history.pushState({}, '', '/' + 'u'.repeat(100 * 1024)); return 1")
        try await h.waitUntil("the URL is cut") {
            let page = try? h.host.page(main)
            return page?.title == "short" && page?.url.count == 256 && page?.truncated == true
        }
        let largest = h.events.map { $0.json.serialized.utf8.count }.max() ?? 0
        #expect(largest < 8 * 1024)
    }

    @Test @LoopActor func aRedirectLoopFailsWithAClearError() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (_, main) = try await h.openSession(.url(Self.server.origin + "/loop"), waitForLoad: false)
        try await h.waitForNavigation(main, .failedProvisional)
        let error = try #require(try h.host.page(main).navigation?.error)
        #expect(error.lowercased().contains("redirect"))
    }

    @Test @LoopActor func aResponseThatNeverEndsTimesOut() async throws {
        // A server that answers headers and then never finishes the body.
        let listener = try TestHTTPServer(hold: true)
        let h = try EngineHarness.make(navigationTimeout: .seconds(2))
        defer { h.tearDown() }
        let (_, main) = try await h.openSession(.url(listener.origin + "/forever"), waitForLoad: false)
        try await h.waitUntil("the navigation failed") {
            let event = try? h.host.page(main).navigation?.event
            return event == .failed || event == .failedProvisional
        }
        #expect(try h.host.page(main).navigation?.error?.contains("did not finish within") == true)
        #expect(try h.host.page(main).isLoading == false)
    }

    @Test @LoopActor func aBusyLoopIsReportedUnresponsiveAndClosingItEndsItsProcess() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (_, other) = try await h.openSession(.html("<title>other</title>", baseURL: "http://127.0.0.1/"))
        let (_, main) = try await h.openSession(.html("<title>busy</title>", baseURL: "http://127.0.0.1/"))
        _ = try await h.eval(main, "window.open('about:blank'); return 1")
        let popup = try await h.waitForPopup()
        // Started without waiting: the evaluation itself never returns (it is bounded by its deadline).
        Task { @LoopActor in _ = try? await h.eval(popup.id, "for (;;) {}") }
        try await h.waitUntil("the page is reported unresponsive") { (try? h.host.page(popup.id).responsive) == false }
        // The rest of the server keeps serving.
        #expect(try await h.eval(other, "return document.title") == "other")
        // It cannot be asked (its beforeunload would never run): the close is forced at once.
        #expect(try await h.host.closePage(popup.id).forced)
        // Its web process (shared with its opener) is terminated, not left spinning.
        try await h.waitForEvent("the opener's process ended") {
            if case .pageCrashed(_, let id, _) = $0.payload { return id == main } else { return false }
        }
        #expect(try await h.eval(other, "return document.title") == "other")
    }

    @Test @LoopActor func aPopupThatWasUnresponsiveAndThenClosesItselfLeavesItsSessionAlive() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (_, main) = try await h.openSession(.html("<title>opener</title>", baseURL: "http://127.0.0.1/"))
        _ = try await h.eval(main, "window.open('about:blank'); return 1")
        let popup = try await h.waitForPopup()
        // Busy long enough to be reported unresponsive (as an overloaded machine can make any page look), then
        // the page runs script again: it closes itself.
        Task { @LoopActor in
            _ = try? await h.eval(popup.id, "const end = Date.now() + 8000; while (Date.now() < end) {} window.close(); return 1")
        }
        try await h.waitUntil("the popup is reported unresponsive") { (try? h.host.page(popup.id).responsive) == false }
        try await h.waitForEvent("the popup closed itself") {
            if case .pageClosed(_, let id, .script, _) = $0.payload { id == popup.id } else { false }
        }
        // Its process (shared with the opener) was not terminated: the page had just run script.
        #expect(try await h.eval(main, "return document.title") == "opener")
        #expect(!h.events.contains { if case .pageCrashed = $0.payload { true } else { false } })
        #expect(try h.host.page(main).crashed == false)
    }
}
