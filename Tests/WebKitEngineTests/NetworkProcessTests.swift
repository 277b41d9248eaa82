import Foundation
import MainLoop
import PagehostCore
import Testing
import WebKitEngine

/// kill -9 of the network process: a load it cuts fails with an error (reported as the page's navigation), WebKit
/// starts a new network process, and pages load again without pagehost restarting.
/// (It kills every network process of this test process: run serially, as `scripts/test` does.)
@Suite
struct NetworkProcessTests {
    init() { MainLoop.shared.start() }

    static let server = try! TestHTTPServer { path in .init(body: "<title>\(path)</title>") }

    static func networkProcesses() -> [Int32] {
        ChildProcesses.named("WebKitNetworkP").map(\.pid)
    }

    @Test @LoopActor func pagesLoadAgainAfterTheNetworkProcessIsKilled() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let (_, main) = try await h.openSession(.url(Self.server.origin + "/before"))
        let killed = Self.networkProcesses()
        try #require(!killed.isEmpty)
        for pid in killed { kill(pid, SIGKILL) }
        // A load caught by the kill fails, and says so (WebKit: "internal error"); the next one goes through a
        // new network process, as a user's retry would.
        var loaded = false
        for attempt in 0..<3 where !loaded {
            let before = try #require(try h.host.page(main).navigation?.id)
            try h.host.navigate(main, to: .url(Self.server.origin + "/after\(attempt)"))
            try await h.waitUntil("navigation \(attempt) ended") {
                guard let navigation = try? h.host.page(main).navigation, navigation.id > before else { return false }
                return [.finished, .failed, .failedProvisional].contains(navigation.event)
            }
            let navigation = try #require(try h.host.page(main).navigation)
            if navigation.event == .finished {
                try await h.waitUntil("its title") { (try? h.host.page(main).title) == "/after\(attempt)" }
                loaded = true
            } else {
                #expect(navigation.error?.isEmpty == false)
            }
        }
        #expect(loaded)
        // …and a new session opens as usual.
        let (_, fresh) = try await h.openSession(.url(Self.server.origin + "/fresh"))
        try await h.waitUntil("the new session's title") { (try? h.host.page(fresh).title) == "/fresh" }
        #expect(Set(Self.networkProcesses()).isDisjoint(with: killed))
        #expect(try h.host.page(main).crashed == false)
    }
}
