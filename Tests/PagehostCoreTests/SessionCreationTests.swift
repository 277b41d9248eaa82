import PagehostCore
import Testing

/// Opening sessions through the host: what the engine is asked, what events come out, and what is refused.
@Suite("Creating sessions")
struct SessionCreationTests {
    init() { startLoop() }

    @Test("a new session is announced empty, then its main page opens")
    @LoopActor func announcesSessionThenMainPage() throws {
        let f = HostFixture()
        let snapshot = try f.createSession(url: "https://example.com/start") { $0.label = "checkout" }
        let main = try #require(snapshot.pages.first?.id)

        let events = f.events(after: 0)
        #expect(events.map(\.type) == ["session.created", "page.opened"])
        #expect(events.map(\.seq) == [1, 2])
        guard case .sessionCreated(let announced) = events[0].payload else {
            Issue.record("first event is \(events[0].type)")
            return
        }
        #expect(announced.id == snapshot.id)
        #expect(announced.pages.isEmpty)
        #expect(announced.order.isEmpty)
        #expect(announced.label == "checkout")
        #expect(announced.engine == "recording")
        guard case .pageOpened(let page) = events[1].payload else {
            Issue.record("second event is \(events[1].type)")
            return
        }
        #expect(page.id == main)
        #expect(page.sessionID == snapshot.id)
        #expect(page.role == .main)
        #expect(page.openerID == nil)
        #expect(page.visible)
        #expect(page.url == "https://example.com/start")
    }

    @Test("the engine opens the session, then its main page with the request")
    @LoopActor func asksEngine() throws {
        let f = HostFixture()
        let snapshot = try f.host.createSession(SessionOptions(), loading: .html("<p>hi</p>", baseURL: "https://base.test/"))
        let main = try #require(snapshot.pages.first?.id)
        #expect(f.engine.attachCount == 1)
        #expect(f.engine.openedSessions == [snapshot.id])
        #expect(f.engine.mainPages == [.init(page: main, session: snapshot.id,
                                             request: .html("<p>hi</p>", baseURL: "https://base.test/"))])
        #expect(snapshot.pages.map(\.url) == ["https://base.test/"])
        #expect(snapshot.order == [main])
        #expect(snapshot.userAgent == "RecordingEngine/1 (\(snapshot.id))")
        #expect(f.host.sessionCount == 1)
        #expect(f.host.pageCount == 1)
    }

    @Test("sessions and pages get distinct ids")
    @LoopActor func distinctIDs() throws {
        let f = HostFixture()
        let one = try f.createSession()
        let two = try f.createSession()
        #expect(one.id != two.id)
        #expect(one.pages[0].id != two.pages[0].id)
        #expect(f.host.snapshots.map(\.id) == [one.id, two.id])
    }

    @Test("what the engine reports while the main page opens is folded into page.opened")
    @LoopActor func changesBeforeAnnouncementAreFolded() throws {
        let f = HostFixture()
        f.engine.whileOpeningMainPage = { [engine = f.engine] page in
            engine.events.pageChanged(page) {
                $0.isLoading = true
                $0.title = "Loading…"
            }
        }
        _ = try f.createSession()
        let events = f.events(after: 0)
        #expect(events.map(\.type) == ["session.created", "page.opened"])
        guard case .pageOpened(let page) = events.last?.payload else {
            Issue.record("no page.opened")
            return
        }
        #expect(page.isLoading)
        #expect(page.title == "Loading…")
    }

    @Test("a main page the engine cannot open leaves no session behind")
    @LoopActor func engineFailureLeavesNothing() throws {
        let f = HostFixture()
        f.engine.openMainPageError = PagehostError(.engine, "no display")
        let error = pagehostError { _ = try f.createSession() }
        #expect(error == PagehostError(.engine, "no display"))
        #expect(f.host.sessionCount == 0)
        #expect(f.host.pageCount == 0)
        #expect(f.host.events.lastSeq == 0)
        #expect(f.engine.closedSessions == f.engine.openedSessions)
        #expect(f.engine.closedSessions.count == 1)
    }

    @Test("past limits.maxSessions a session is refused with limit_exceeded, changing nothing")
    @LoopActor func maxSessions() throws {
        var limits = HostLimits()
        limits.maxSessions = 2
        let f = HostFixture(limits: limits)
        let first = try f.createSession()
        _ = try f.createSession()
        let mark = f.mark

        let error = pagehostError { _ = try f.createSession() }
        #expect(error?.code == .limit)
        #expect(f.host.sessionCount == 2)
        #expect(f.host.pageCount == 2)
        #expect(f.engine.openedSessions.count == 2)
        #expect(f.engine.mainPages.count == 2)
        #expect(f.mark == mark)

        // A slot frees when a session closes.
        try f.host.closeSession(first.id)
        #expect(pagehostError { _ = try f.createSession() } == nil)
        #expect(f.host.sessionCount == 2)
    }

    @Test("a viewport outside 16…4096 pixels is a bad request and opens nothing", arguments: [
        (0, 800), (15, 800), (4097, 800), (1280, 15), (1280, 10_000), (-1, -1),
    ])
    @LoopActor func invalidViewport(width: Int, height: Int) throws {
        let f = HostFixture()
        let error = pagehostError { _ = try f.createSession { $0.viewport = Viewport(width: width, height: height) } }
        #expect(error?.code == .badRequest)
        #expect(f.host.sessionCount == 0)
        #expect(f.engine.openedSessions.isEmpty)
        #expect(f.host.events.lastSeq == 0)
    }

    @Test("viewports at the bounds are accepted", arguments: [(16, 16), (4096, 4096), (16, 4096)])
    @LoopActor func viewportBounds(width: Int, height: Int) throws {
        let f = HostFixture()
        _ = try f.createSession { $0.viewport = Viewport(width: width, height: height) }
        #expect(f.host.sessionCount == 1)
    }

    @Test("a negative popup cap or a user agent suffix with control characters is a bad request")
    @LoopActor func otherBadOptions() throws {
        let f = HostFixture()
        #expect(pagehostError { _ = try f.createSession { $0.maxPopups = -1 } }?.code == .badRequest)
        #expect(pagehostError { _ = try f.createSession { $0.userAgentSuffix = "A\nX-Injected: 1" } }?.code == .badRequest)
        #expect(pagehostError { _ = try f.createSession { $0.userAgentSuffix = "A\u{7}" } }?.code == .badRequest)
        #expect(f.host.sessionCount == 0)
        #expect(f.engine.openedSessions.isEmpty)
        _ = try f.createSession { $0.userAgentSuffix = "GOOGLE_PAY_SUPPORTED" }
        #expect(f.host.sessionCount == 1)
    }
}
