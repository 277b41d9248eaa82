import Foundation

/// A process and its descendants read from /proc: how many there are, their resident memory and their PSS
/// (`smaps_rollup`). For the in-process server, where /metrics reports the pagehost process alone.
struct ProcessTree {
    struct Process: Sendable {
        var pid: Int32
        var name: String
        var residentBytes: Int
    }

    var processes: [Process]

    var count: Int { processes.count }
    var residentBytes: Int { processes.reduce(0) { $0 + $1.residentBytes } }

    /// `root` and every process below it.
    static func of(_ root: Int32) -> ProcessTree {
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
                if line.hasPrefix("VmRSS:") {
                    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                    resident[pid] = (fields.count >= 2 ? Int(fields[1]) ?? 0 : 0) * 1024
                }
            }
            children[ppid, default: []].append(pid)
        }
        var result: [Process] = []
        var stack = [root]
        while let pid = stack.popLast() {
            guard let name = names[pid] else { continue }
            result.append(Process(pid: pid, name: name, residentBytes: resident[pid] ?? 0))
            stack += children[pid] ?? []
        }
        return ProcessTree(processes: result)
    }
}
