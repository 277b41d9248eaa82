import MainLoop
import PagehostCore
import Testing
import WebKitEngine

/// History, find, scroll, click and loading data: what a remote operator does with a page.
@Suite
struct PageToolboxTests {
    init() { MainLoop.shared.start() }

    static let server = try! TestHTTPServer { path in
        .init(body: "<title>\(path)</title><p>page \(path)</p>")
    }

    @Test @LoopActor func backForwardAndReloadMoveThroughHistory() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let origin = Self.server.origin
        let (_, main) = try await h.openSession(.url(origin + "/one"))
        #expect(throws: PagehostError.self) { try h.host.perform(.back, in: main) }
        try h.host.navigate(main, to: .url(origin + "/two"))
        try await h.waitUntil("on /two with history") {
            let page = try? h.host.page(main)
            return page?.url == origin + "/two" && page?.canGoBack == true && page?.navigation?.event == .finished
        }
        #expect(try h.host.page(main).canGoForward == false)
        // The URL and the history flags change as soon as a history navigation is asked for; wait for the
        // navigation itself (a new id, finished), as a user waits for the page.
        try await goThroughHistory(h, main, .back, to: origin + "/one", canGoBack: false, canGoForward: true)
        try await goThroughHistory(h, main, .forward, to: origin + "/two", canGoBack: true, canGoForward: false)
        let before = try #require(try h.host.page(main).navigation?.id)
        try h.host.perform(.reload, in: main)
        try await h.waitUntil("reloaded") {
            let nav = try? h.host.page(main).navigation
            return nav?.id != before && nav?.event == .finished
        }
        #expect(try h.host.page(main).url == origin + "/two")
    }

    @Test @LoopActor func reloadingAPageLoadedFromHTMLKeepsIt() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (_, main) = try await h.openSession(.html("<title>Inline</title><p>from a string</p>", baseURL: "http://127.0.0.1:9/base"))
        let before = try #require(try h.host.page(main).navigation?.id)
        try h.host.perform(.reload, in: main)
        try await h.waitUntil("reloaded") {
            guard let page = try? h.host.page(main), let navigation = page.navigation else { return false }
            return navigation.id > before && navigation.event == .finished && page.title == "Inline"
        }
        #expect(try h.host.page(main).url == "http://127.0.0.1:9/base")
    }

    @LoopActor func goThroughHistory(_ h: EngineHarness, _ page: PageID, _ action: HistoryAction, to url: String,
                                     canGoBack: Bool, canGoForward: Bool) async throws {
        let before = try #require(try h.host.page(page).navigation?.id)
        try h.host.perform(action, in: page)
        try await h.waitUntil("\(action) to \(url)") {
            guard let state = try? h.host.page(page), let navigation = state.navigation else { return false }
            return navigation.id > before && navigation.event == .finished && state.url == url
                && state.canGoBack == canGoBack && state.canGoForward == canGoForward
        }
    }

    @Test @LoopActor func findCountsMatchesAndMovesThroughThem() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let html = "<title>f</title><p>Lake Tahoe, lake Como, LAKE Bled.</p><p>No more lakes here? One: lake.</p>"
        let (_, main) = try await h.openSession(.html(html, baseURL: "http://127.0.0.1/"))
        #expect(try await h.host.find(.search("lake", caseInsensitive: true), in: main) == 5)
        #expect(try await h.host.find(.search("lake", caseInsensitive: false), in: main) == 3)
        // Moving through the matches keeps answering how many there are.
        #expect(try await h.host.find(.next, in: main) == 3)
        #expect(try await h.host.find(.previous, in: main) == 3)
        #expect(try await h.host.find(.search("volcano", caseInsensitive: true), in: main) == 0)
        #expect(try await h.host.find(.clear, in: main) == nil)
    }

    @Test @LoopActor func scrollingToAnElementIsObserved() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        var options = SessionOptions()
        options.viewport = Viewport(width: 400, height: 300)
        let html = "<title>s</title><body style='margin:0'><div style='height:2000px'>top</div><div id=target style='height:50px'>Target</div><div style='height:2000px'></div>"
        let (_, main) = try await h.openSession(.html(html, baseURL: "http://127.0.0.1/"), options: options)
        try await h.waitUntil("initial scroll state") { (try? h.host.page(main).scroll)?.y == 0 }
        #expect(try h.host.page(main).scroll?.contentHeight ?? 0 > 4000)
        try await h.host.scroll(main, to: .element(selector: "#target"))
        try await h.waitUntil("scrolled to the element") { (try? h.host.page(main).scroll)?.y == 2000 }
        try await h.host.scroll(main, to: .position(x: 0, y: 120))
        try await h.waitUntil("scrolled to 120") { (try? h.host.page(main).scroll)?.y == 120 }
        await #expect(throws: PagehostError.self) { try await h.host.scroll(main, to: .element(selector: "#missing")) }
        await #expect(throws: PagehostError.self) { try await h.host.scroll(main, to: .element(selector: "##bad")) }
    }

    @Test @LoopActor func clickingIsTrustedInputAndOpensAUserInitiatedPopup() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let html = """
            <title>c</title><div style='height:1500px'></div>
            <button id=pay style='width:120px;height:40px'>Pay</button>
            <script>
              window.clicks = [];
              document.getElementById('pay').addEventListener('click', (e) => {
                window.clicks.push(e.isTrusted);
                window.open('about:blank', 'pay');
              });
            </script>
            """
        let (_, main) = try await h.openSession(.html(html, baseURL: "http://127.0.0.1/"))
        try await h.host.click("#pay", in: main)
        _ = try await h.waitForPopup()
        #expect(try await h.eval(main, "return window.clicks") == [true])
        await #expect(throws: PagehostError.self) { try await h.host.click("#nothing", in: main) }
    }

    @Test @LoopActor func dataLoadsWithItsMimeTypeAndEncoding() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        // "café" in ISO-8859-1: é is one byte, 0xE9.
        let bytes: [UInt8] = Array("<title>caf".utf8) + [0xE9] + Array("</title>".utf8)
        let (_, main) = try await h.openSession(.data(bytes, mimeType: "text/html", encoding: "ISO-8859-1", baseURL: "http://127.0.0.1/d"))
        try await h.waitUntil("title") { (try? h.host.page(main).title) == "café" }
        // The Encoding Standard reads the ISO-8859-1 label as windows-1252, its superset.
        #expect(try await h.eval(main, "return [document.characterSet, location.href]") == ["windows-1252", "http://127.0.0.1/d"])
        let plain = Array("just text".utf8)
        try h.host.navigate(main, to: .data(plain, mimeType: "text/plain", encoding: nil, baseURL: "http://127.0.0.1/t"))
        try await h.waitUntilAsync("plain text shown") {
            (try? await h.eval(main, "return document.contentType")) == "text/plain"
        }
    }
}
