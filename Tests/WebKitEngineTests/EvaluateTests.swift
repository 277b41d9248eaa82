import MainLoop
import PagehostCore
import Testing
import WebKitEngine

/// `evaluate`: a function body with named arguments, its JSON result or a clear error.
@Suite
struct EvaluateTests {
    init() { MainLoop.shared.start() }

    @Test @LoopActor func argumentsBecomeLocalVariablesAndTheResultComesBack() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (_, main) = try await h.openSession(.html("<title>e</title><h2 id=a>Lakes</h2><h2 id=b>Rivers</h2>", baseURL: "http://127.0.0.1/"))
        let result = try await h.eval(main, """
            return { sum: a + b, greeting: `${prefix}, ${names.join(' & ')}`, nested: options.deep.value,
                     sections: [...document.querySelectorAll('h2')].map(e => ({ id: e.id, title: e.textContent })) };
            """, [("a", 2), ("b", 40), ("prefix", "Hi \"there\""), ("names", ["Ann", "Bo"]),
                  ("options", ["deep": ["value": nil]])])
        #expect(result["sum"] == 42)
        #expect(result["greeting"] == "Hi \"there\", Ann & Bo")
        #expect(result["nested"] == .null)
        #expect(result["sections"] == [["id": "a", "title": "Lakes"], ["id": "b", "title": "Rivers"]])
    }

    @Test @LoopActor func promisesAreAwaited() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (_, main) = try await h.openSession(.html("<title>e</title>", baseURL: "http://127.0.0.1/"))
        let result = try await h.eval(main, "return await new Promise(r => setTimeout(() => r(n * 2), 5))", [("n", 21)])
        #expect(result == 42)
        #expect(try await h.eval(main, "return undefined") == .null)
    }

    @Test @LoopActor func aThrowingScriptIsAnErrorNotACrash() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (_, main) = try await h.openSession(.html("<title>e</title>", baseURL: "http://127.0.0.1/"))
        do {
            _ = try await h.eval(main, "throw new TypeError('nope')")
            Issue.record("expected a script error")
        } catch let error as PagehostError {
            #expect(error.code == .scriptError)
            #expect(error.message.contains("nope"))
        }
        do {
            _ = try await h.eval(main, "return (")
            Issue.record("expected a syntax error")
        } catch let error as PagehostError {
            #expect(error.code == .scriptError)
        }
        // The page still works afterwards.
        #expect(try await h.eval(main, "return document.title") == "e")
    }

    @Test @LoopActor func badArgumentNamesAreRefused() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (_, main) = try await h.openSession(.html("<title>e</title>", baseURL: "http://127.0.0.1/"))
        do {
            _ = try await h.eval(main, "return 1", [("x); alert(1); (y", 1)])
            Issue.record("expected bad_request")
        } catch let error as PagehostError {
            #expect(error.code == .badRequest)
        }
    }
}
