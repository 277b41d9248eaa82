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
        // Other suites' web processes may be exiting meanwhile: one already gone (or a zombie) shows no
        // environment and is left out; every one that still runs must have the variable.
        let environments = Self.webProcesses().map { (pid: $0, environment: Self.environment(of: $0)) }
            .filter { !$0.environment.isEmpty }
        #expect(!environments.isEmpty, "no running web process found among this process's children")
        for (pid, environment) in environments {
            // The harness's engine uses the default, 4 MB.
            #expect(environment["JSC_largeHeapSize"] == String(4 * 1024 * 1024), "web process \(pid)")
        }
    }

    /// This process's children named WebKitWebProcess (`comm` is cut to 15 bytes), zombies left out.
    static func webProcesses() -> [Int32] {
        let me = getpid()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return false }
            let name = stat[stat.index(after: open)..<close]
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return name.hasPrefix("WebKitWebProces") && fields.count > 1 && fields[0] != "Z" && Int32(fields[1]) == me
        }
    }

    static func environment(of pid: Int32) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return [:] }
        var result: [String: String] = [:]
        for entry in data.split(separator: 0) {
            let text = String(decoding: entry, as: UTF8.self)
            guard let equals = text.firstIndex(of: "=") else { continue }
            result[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        return result
    }
}
