import Foundation
import PagehostCore

/// Runs the built `pagehost` executable (it sits next to the test bundle) to its end, with a deadline, and
/// collects what it printed.
struct PagehostRun {
    var status: Int32
    var stdout: String
    var stderr: String

    /// stdout as one JSON object (`--json`).
    func json() throws -> JSONValue { try JSONParser.parse(stdout) }

    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("pagehost")
    }

    struct TimedOut: Error, CustomStringConvertible {
        let arguments: [String]
        var description: String { "pagehost \(arguments.joined(separator: " ")) did not end in time" }
    }

    /// Runs `pagehost ARGUMENTS`; one that outlives `timeout` is interrupted (which closes its sessions) and
    /// reported as a failure.
    static func run(_ arguments: [String], timeout: TimeInterval = 90) throws -> PagehostRun {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        let stdout = Drain(out.fileHandleForReading), stderr = Drain(err.fileHandleForReading)
        if ended.wait(timeout: .now() + timeout) == .timedOut {
            process.interrupt()
            if ended.wait(timeout: .now() + 30) == .timedOut { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw TimedOut(arguments: arguments)
        }
        process.waitUntilExit()
        return PagehostRun(status: process.terminationStatus, stdout: stdout.text(), stderr: stderr.text())
    }
}

/// Reads a pipe to its end on a thread of its own.
final class Drain: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            self.data = handle.readDataToEndOfFile()
            self.done.signal()
        }.start()
    }

    func text() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}

/// A folder of its own under the temporary directory, removed when the test is done with it.
struct TemporaryFolder: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("pagehost-load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String, _ text: String) throws -> String {
        let path = url.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A loopback port nothing listens on: bound, then closed again.
func closedLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
    return Int(UInt16(bigEndian: address.sin_port))
}
