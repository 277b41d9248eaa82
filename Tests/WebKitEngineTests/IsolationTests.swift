import MainLoop
import PagehostCore
import Testing
import WebKitEngine

/// Sessions are separate browser profiles; a popup shares everything with its opener.
@Suite
struct IsolationTests {
    init() { MainLoop.shared.start() }

    static let server = try! TestHTTPServer { _ in .init(body: "<title>store</title>") }

    @Test @LoopActor func cookiesAndLocalStorageStayInTheirSession() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let url = Self.server.origin + "/"
        let (_, first) = try await h.openSession(.url(url))
        _ = try await h.eval(first, "document.cookie = 'token=abc; path=/'; localStorage.setItem('cart', '3 items'); return 1")
        #expect(try await h.eval(first, "return document.cookie") == "token=abc")

        // A popup of the same session sees both.
        _ = try await h.eval(first, "window.open('/popup'); return 1")
        let popup = try await h.waitForPopup()
        try await h.waitForNavigation(popup.id, .finished)
        #expect(try await h.eval(popup.id, "return [document.cookie, localStorage.getItem('cart')]") == ["token=abc", "3 items"])

        // Another session at the same origin sees neither.
        let (_, second) = try await h.openSession(.url(url))
        #expect(try await h.eval(second, "return [document.cookie, localStorage.getItem('cart')]") == ["", nil])
    }
}
