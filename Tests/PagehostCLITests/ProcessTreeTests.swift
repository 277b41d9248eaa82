import Foundation
import PagehostCore
import Testing

/// pagehost leaves nothing behind: its Xvfb and WebKit processes go when it goes, however it goes.
@Suite
struct ProcessTreeTests {
    /// Every process below `root`, by parent pid, read from /proc.
    static func descendants(of root: Int32) -> [Int32: String] {
        var children: [Int32: [Int32]] = [:]
        var names: [Int32: String] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parent = Int32(fields[1]) else { continue }
            children[parent, default: []].append(pid)
            names[pid] = String(stat[stat.index(after: open)..<close])
        }
        var found: [Int32: String] = [:]
        var queue = children[root] ?? []
        while let pid = queue.popLast() {
            found[pid] = names[pid]
            queue += children[pid] ?? []
        }
        return found
    }

    static func alive(_ pid: Int32) -> Bool {
        // A zombie has exited; only its parent has not reaped it yet.
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }

    @Test(arguments: [SIGTERM, SIGKILL])
    func everyChildProcessEndsWithPagehost(signal: Int32) async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("pagehost-tree-\(UUID().uuidString).jsonl")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let process = Process()
        process.executableURL = PagehostProcess.executable
        process.arguments = ["open", "data:text/html,<title>tree</title><script>window.open('about:blank')</script>"]
        // Its own display, so its Xvfb is its own child.
        process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "DISPLAY" }
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let deadline = Date().addingTimeInterval(60)
        func printed() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        while !printed().contains("\"role\":\"popup\""), process.isRunning, Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let tree = Self.descendants(of: pid)
        #expect(tree.values.contains("Xvfb"), "pagehost started its own Xvfb: \(tree)")
        #expect(tree.values.contains { $0.hasPrefix("WebKitWebProces") }, "\(tree)")
        #expect(tree.values.contains { $0.hasPrefix("WebKitNetworkPr") }, "\(tree)")

        kill(pid, signal)
        let gone = Date().addingTimeInterval(signal == SIGTERM ? 5 : 10)
        while tree.keys.contains(where: Self.alive), Date() < gone {
            try await Task.sleep(for: .milliseconds(50))
        }
        let left = tree.filter { Self.alive($0.key) }
        #expect(left.isEmpty, "still running after pagehost got signal \(signal): \(left)")
        while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        if signal == SIGTERM { #expect(process.terminationStatus == 0) }
    }
}

extension ProcessTreeTests {
    @Test func whenTheDisplayDiesPagehostExitsNonZeroSayingSo() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("pagehost-display-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let process = Process()
        process.executableURL = PagehostProcess.executable
        process.arguments = ["open", "data:text/html,<title>display</title>"]
        process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "DISPLAY" }
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        func printed() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        while !printed().contains("\"finished\""), process.isRunning, Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let xvfb = try #require(Self.descendants(of: process.processIdentifier).first { $0.value == "Xvfb" }?.key)
        kill(xvfb, SIGKILL)
        let prompt = Date().addingTimeInterval(5)
        while process.isRunning, Date() < prompt { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!process.isRunning, "pagehost still runs 5 s after its display died")
        if process.isRunning { process.terminate() }
        while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        #expect(process.terminationStatus != 0)
        #expect(printed().lowercased().contains("display"), "\(printed().suffix(300))")
    }
}
