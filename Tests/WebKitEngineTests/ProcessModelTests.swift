import Foundation
import MainLoop
import PagehostCore
import Testing
import WebKitEngine

/// `shared` packs sessions onto a pool of web processes, `pagesPerProcess` pages each, sharing their data
/// store; `perSession` isolation is in IsolationTests. (Counting the processes themselves needs a process
/// tree of its own: the server-level test does it.)
@Suite
struct ProcessModelTests {
    init() { MainLoop.shared.start() }

    static let server = try! TestHTTPServer { _ in .init(body: "<title>pool</title>") }

    @Test @LoopActor func sharedSessionsArePackedAndShareTheirStore() async throws {
        let h = try EngineHarness.make(pagesPerProcess: 2)
        defer { h.tearDown() }
        var options = SessionOptions()
        options.processModel = .shared
        var pages: [PageID] = []
        for _ in 0..<3 {
            pages.append(try await h.openSession(.url(Self.server.origin + "/"), options: options).1)
        }
        #expect(h.engine.sharedPoolOccupancy == [2, 1])
        // What sharing gives up: sessions packed together share cookies; the third, in the next process, does not.
        _ = try await h.eval(pages[0], "document.cookie = 'shared=yes; path=/'; return 1")
        #expect(try await h.eval(pages[1], "return document.cookie") == "shared=yes")
        #expect(try await h.eval(pages[2], "return document.cookie") == "")

        // A popup joins its opener's process; closing pages frees the slot.
        _ = try await h.eval(pages[2], "window.open('/popup'); return 1")
        let popup = try await h.waitForPopup()
        #expect(h.engine.sharedPoolOccupancy == [2, 2])
        try await h.host.closePage(popup.id)
        try h.host.closeSession(try h.host.page(pages[2]).sessionID)
        #expect(h.engine.sharedPoolOccupancy == [2])
    }
}
