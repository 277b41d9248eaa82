import Foundation

/// A process and its descendants read from /proc: how many of each kind (pagehost, WebKit web and network
/// processes, the X server), their resident memory, and optionally their PSS (`smaps_rollup`: shared pages
/// split between their sharers, so the sum is what the tree really costs). Reading PSS makes the kernel walk
/// every process's page tables (a millisecond or so each): call it off the loop thread.
public struct ProcessTree: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case pagehost, web, network, display, other
    }

    public struct Process: Sendable {
        public var pid: Int32
        public var name: String
        public var kind: Kind
        public var residentBytes: Int
        /// Nil unless read (`of(_:readingPSS:)`), or when the kernel would not say.
        public var pssBytes: Int?
    }

    public var processes: [Process]

    public var count: Int { processes.count }
    public var residentBytes: Int { processes.reduce(0) { $0 + $1.residentBytes } }

    /// `root` (kind `pagehost`) and every process below it.
    public static func of(_ root: Int32, readingPSS: Bool = false) -> ProcessTree {
        var children: [Int32: [Int32]] = [:]
        var names: [Int32: String] = [:]
        var resident: [Int32: Int] = [:]
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = Int32(entry), let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8) else { continue }
            var ppid: Int32 = 0
            for line in status.split(separator: "\n") {
                if line.hasPrefix("Name:") { names[pid] = line.dropFirst(5).trimmingCharacters(in: .whitespaces) }
                if line.hasPrefix("PPid:") { ppid = Int32(line.dropFirst(5).trimmingCharacters(in: .whitespaces)) ?? 0 }
                if line.hasPrefix("VmRSS:") { resident[pid] = kilobytes(line).map { $0 * 1024 } ?? 0 }
            }
            children[ppid, default: []].append(pid)
        }
        var result: [Process] = []
        var stack = [root]
        while let pid = stack.popLast() {
            guard let name = names[pid] else { continue }
            let kind: Kind = pid == root ? .pagehost : kind(of: name)
            result.append(Process(pid: pid, name: name, kind: kind, residentBytes: resident[pid] ?? 0,
                                  pssBytes: readingPSS ? pss(of: pid) : nil))
            stack += children[pid] ?? []
        }
        return ProcessTree(processes: result)
    }

    /// The kind a process name says (`/proc/PID/status` names are cut to 15 characters).
    static func kind(of name: String) -> Kind {
        if name.hasPrefix("WebKitWebProces") { return .web }
        if name.hasPrefix("WebKitNetworkPr") { return .network }
        if name == "Xvfb" { return .display }
        return .other
    }

    private static func pss(of pid: Int32) -> Int? {
        guard let rollup = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8),
              let line = rollup.split(separator: "\n").first(where: { $0.hasPrefix("Pss:") })
        else { return nil }
        return kilobytes(line).map { $0 * 1024 }
    }

    /// The number of a `Key:   123 kB` line.
    private static func kilobytes(_ line: Substring) -> Int? {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        return fields.count >= 2 ? Int(fields[1]) : nil
    }
}
