import Foundation
import PagehostCore

/// Pagehost's private X display: WebKitGTK needs one. If `DISPLAY` is set it is used as it is; otherwise an
/// `Xvfb` is started (`-displayfd`, `-nolisten tcp`, `-terminate`).
///
/// It is never killed from here: `-terminate` makes Xvfb exit as soon as its last client, this process's GTK
/// connection, goes away, which is when pagehost exits, however it exits (SIGKILL included). Killing it
/// earlier would make GDK end the process with status 1 on the lost connection.
final class XvfbDisplay: @unchecked Sendable {
    /// The Xvfb this process started, if any. Touched only while starting (once, on the loop thread).
    private var process: Process?
    private(set) var display: String?

    /// Makes sure `DISPLAY` names a display; starts Xvfb when it does not.
    func ensure(screen: String = "1920x1080x24") throws(PagehostError) {
        if let current = ProcessInfo.processInfo.environment["DISPLAY"], !current.isEmpty {
            display = current
            return
        }
        guard let xvfb = XvfbDisplay.findExecutable("Xvfb") else {
            throw PagehostError(.unavailable,
                "DISPLAY is not set and Xvfb was not found: install the Debian package `xvfb` (or set DISPLAY)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: xvfb)
        process.arguments = ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", screen, "-terminate"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        do {
            try process.run()
        } catch {
            throw PagehostError(.unavailable, "could not start Xvfb: \(error)")
        }
        // Xvfb writes the display number and a newline to fd 1 once it accepts connections.
        var number = ""
        let handle = output.fileHandleForReading
        while true {
            let byte = handle.readData(ofLength: 1)
            guard let c = byte.first else {
                throw PagehostError(.unavailable, "Xvfb exited before it reported a display number")
            }
            if c == UInt8(ascii: "\n") { break }
            number.append(Character(UnicodeScalar(c)))
        }
        self.process = process
        let name = ":" + number.trimmingCharacters(in: .whitespaces)
        setenv("DISPLAY", name, 1)
        // GTK would prefer a Wayland socket if one were announced; Pagehost draws on its own X display.
        unsetenv("WAYLAND_DISPLAY")
        display = name
    }

    var startedByUs: Bool { process != nil }

    static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") + ["/usr/bin"] {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
