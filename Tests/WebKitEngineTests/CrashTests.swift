import Foundation
import MainLoop
import PagehostCore
import Testing
import WebKitEngine

/// A killed web process marks its page crashed; the process and other sessions keep working.
@Suite
struct CrashTests {
    init() { MainLoop.shared.start() }

    /// The WebKit web processes that are children of this process, with their resident memory in kB.
    static func webProcesses() -> [(pid: Int32, rssKB: Int)] {
        ChildProcesses.named("WebKitWebProces").map { child in
            (child.pid, Int(child.status["VmRSS"]?.split(separator: " ").first ?? "") ?? 0)
        }
    }

    @Test @LoopActor func killingTheWebProcessMarksThePageCrashed() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (_, survivor) = try await h.openSession(.html("<title>survivor</title>", baseURL: "http://127.0.0.1/"))
        let (session, victim) = try await h.openSession(.html("<title>victim</title>", baseURL: "http://127.0.0.1/"))
        // Tell the victim's web process apart from every other one (tests run in parallel in this process):
        // make it hold 400 MB that no other test page would.
        _ = try await h.eval(victim, "window.ballast = new Uint8Array(400 * 1024 * 1024).fill(7); return ballast.length")
        let heavy = Self.webProcesses().filter { $0.rssKB > 350 * 1024 }
        try #require(heavy.count == 1, "exactly one web process holds the ballast: \(Self.webProcesses())")
        kill(heavy[0].pid, SIGKILL)

        try await h.waitForEvent("page.crashed") {
            if case .pageCrashed(_, let id, _) = $0.payload { return id == victim } else { return false }
        }
        #expect(try h.host.page(victim).crashed)
        #expect(try h.host.snapshot(of: session).pages.count == 1)
        // The rest keeps serving: the other session answers, and a new one opens.
        #expect(try await h.eval(survivor, "return document.title") == "survivor")
        #expect(try h.host.page(survivor).crashed == false)
        let (_, fresh) = try await h.openSession(.html("<title>fresh</title>", baseURL: "http://127.0.0.1/"))
        #expect(try await h.eval(fresh, "return document.title") == "fresh")
    }
}
