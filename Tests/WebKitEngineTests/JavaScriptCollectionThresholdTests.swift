import Foundation
import MainLoop
import PagehostCore
import Testing
import WebKitEngine

/// Every web process the engine starts gets its JavaScript collection threshold (JavaScriptCore's
/// `largeHeapSize`, 32 MB in WebKit): without it, each of a hundred sessions' processes grows by up to 32 MB
/// of garbage before collecting (the soak in `docs/reliability.md`).
@Suite
struct JavaScriptCollectionThresholdTests {
    init() { MainLoop.shared.start() }

    @Test @LoopActor func everyWebProcessGetsTheThreshold() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        _ = try await h.openSession(.html("<title>threshold</title><p>a page</p>", baseURL: nil))
        // Other suites' web processes may be exiting meanwhile: one already gone shows no environment and is
        // left out; every one that still runs must have the variable.
        let environments = ChildProcesses.named("WebKitWebProces").map { (pid: $0.pid, environment: ChildProcesses.environment(of: $0.pid)) }
            .filter { !$0.environment.isEmpty }
        #expect(!environments.isEmpty, "no running web process found among this process's children")
        for (pid, environment) in environments {
            // The harness's engine uses the default, 4 MB.
            #expect(environment["JSC_largeHeapSize"] == String(4 * 1024 * 1024), "web process \(pid)")
        }
    }
}
