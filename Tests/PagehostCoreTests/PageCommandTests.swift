import PagehostCore
import Testing

/// Commands that go through the host to a page's engine: navigate, evaluate, screenshot.
@Suite("Page commands")
struct PageCommandTests {
    init() { startLoop() }

    @Test("evaluate refuses an argument name that is not a JavaScript identifier",
          arguments: ["a-b", "class", "1a", "", "await", "arguments", "a b", "é", "this"])
    @LoopActor func badArgumentName(name: String) async throws {
        let f = HostFixture()
        let main = try f.createSession().pages[0].id
        do {
            _ = try await f.host.evaluate("return 1", arguments: [("ok", 1), (name, 2)], in: main)
            Issue.record("evaluate accepted argument name \"\(name)\"")
        } catch {
            #expect(error.code == .badRequest)
        }
        #expect(f.engine.evaluations.isEmpty)
    }

    @Test("evaluate passes script and named arguments to the engine and returns its result")
    @LoopActor func evaluate() async throws {
        let f = HostFixture()
        let main = try f.createSession().pages[0].id
        f.engine.evaluationResult = ["sum": 3]
        let result = try await f.host.evaluate("return {sum: a + $b + _c1}", arguments: [("a", 1), ("$b", 2), ("_c1", 0)],
                                               in: main)
        #expect(result == ["sum": 3])
        let call = try #require(f.engine.evaluations.first)
        #expect(f.engine.evaluations.count == 1)
        #expect(call.script == "return {sum: a + $b + _c1}")
        #expect(call.arguments.map(\.0) == ["a", "$b", "_c1"])
        #expect(call.page == main)
    }

    @Test("commands on an unknown page are not_found and never reach the engine")
    @LoopActor func unknownPage() async throws {
        let f = HostFixture()
        _ = try f.createSession()
        let nowhere = PageID("nowhere")
        do {
            _ = try await f.host.evaluate("return 1", in: nowhere)
            Issue.record("evaluate on an unknown page succeeded")
        } catch {
            #expect(error.code == .notFound)
        }
        do {
            _ = try await f.host.screenshot(nowhere)
            Issue.record("screenshot of an unknown page succeeded")
        } catch {
            #expect(error.code == .notFound)
        }
        #expect(pagehostError { try f.host.navigate(nowhere, to: .url("https://a.test/")) }?.code == .notFound)
        #expect(f.engine.evaluations.isEmpty)
        #expect(f.engine.loads.isEmpty)
    }

    @Test("navigate hands the request to the engine for that page")
    @LoopActor func navigate() throws {
        let f = HostFixture()
        let main = try f.createSession().pages[0].id
        try f.host.navigate(main, to: .url("https://next.test/"))
        try f.host.navigate(main, to: .html("<b>x</b>", baseURL: nil))
        #expect(f.engine.loads == [
            .init(request: .url("https://next.test/"), page: main),
            .init(request: .html("<b>x</b>", baseURL: nil), page: main),
        ])
    }
}
