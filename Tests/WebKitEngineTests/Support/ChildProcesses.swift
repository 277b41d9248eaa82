import Foundation

/// This test process's children, read from `/proc`: the web and network processes WebKit started for the
/// tests, found by name (the kernel cuts it to 15 bytes: "WebKitWebProces", "WebKitNetworkP").
enum ChildProcesses {
    /// Children whose name starts with `prefix`, with their `/proc/PID/status` fields. Zombies (exited, not yet
    /// reaped: other suites close their sessions meanwhile) are left out.
    static func named(_ prefix: String) -> [(pid: Int32, status: [String: String])] {
        let me = String(getpid())
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { name in
            guard let pid = Int32(name),
                  let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
            var status: [String: String] = [:]
            for line in text.split(separator: "\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                status[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            guard status["Name"]?.hasPrefix(prefix) == true, status["PPid"] == me,
                  status["State"]?.hasPrefix("Z") != true else { return nil }
            return (pid, status)
        }
    }

    /// A process's environment; empty once it has exited.
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
