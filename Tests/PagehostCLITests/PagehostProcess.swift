import Foundation
import PagehostCore

/// Runs the built `pagehost` executable (it sits next to the test bundle) and collects what it prints.
struct PagehostProcess {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String

        /// stdout's JSON lines, parsed; a line that is not JSON fails the parse.
        func events() throws -> [JSONValue] {
            try stdout.split(separator: "\n").map { try JSONParser.parse(String($0)) }
        }
    }

    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("pagehost")
    }

    /// The repository's root, for the bundled examples.
    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Runs `pagehost ARGUMENTS` to its end; a run that outlives `timeout` is killed and reported. Waits
    /// with `Task.sleep`, so a test runner's few threads are never blocked while the child runs.
    ///
    /// With `interruptWhen`, the run is interrupted (SIGINT, as Ctrl-C) once what it printed on stdout so far
    /// satisfies the condition.
    static func run(_ arguments: [String], timeout: TimeInterval = 60,
                    interruptWhen: ((String) -> Bool)? = nil) async throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Drain both pipes while it runs, so a chatty run cannot block on a full pipe.
        let stdout = Drain(out.fileHandleForReading), stderr = Drain(err.fileHandleForReading)
        let deadline = Date().addingTimeInterval(timeout)
        var interrupted = false
        while process.isRunning, Date() < deadline {
            if let interruptWhen, !interrupted, interruptWhen(stdout.textSoFar()) {
                process.interrupt()
                interrupted = true
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning {
            process.interrupt()
            process.waitUntilExit()
            throw RunError.timedOut(arguments)
        }
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: await stdout.text(), stderr: await stderr.text())
    }

    enum RunError: Error {
        case timedOut([String])
    }
}

/// Reads a pipe to its end on a thread of its own.
final class Drain: @unchecked Sendable {
    private var data = Data()
    private let lock = NSLock()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                self.lock.withLock { self.data.append(chunk) }
            }
            self.done.signal()
        }.start()
    }

    /// What was read so far.
    func textSoFar() -> String {
        lock.withLock { String(decoding: data, as: UTF8.self) }
    }

    /// The pipe's whole text, once its writer closed it (the child exited).
    func text() async -> String {
        while done.wait(timeout: .now()) == .timedOut {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return textSoFar()
    }
}
