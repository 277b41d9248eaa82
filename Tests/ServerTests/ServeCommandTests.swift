import Foundation
import PagehostCore
import Testing

/// The `pagehost` executable itself: `serve --port 0` prints its URL, serves, and stops cleanly on SIGTERM.
@Suite("pagehost serve")
struct ServeCommandTests {
    /// The executable SwiftPM built next to the test bundle.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("pagehost")
    }

    @Test func servePortZeroPrintsTheURLAndStopsCleanlyOnSIGTERM() async throws {
        let executable = Self.executable
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "build pagehost first: \(executable.path)")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve", "--port", "0", "--no-demo"]
        process.currentDirectoryURL = URL(fileURLWithPath: ServerFixture.root)
        var environment = ProcessInfo.processInfo.environment
        environment["PAGEHOST_TOKEN"] = nil
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let reader = output.fileHandleForReading

        // One line with the dashboard URL, the port it really listens on, and a generated token.
        let line = try await offPool { () -> String in
            var bytes: [UInt8] = []
            while !bytes.contains(UInt8(ascii: "\n")) {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                bytes += chunk
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        let match = try #require(line.firstMatch(of: /http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]{32})/), "no dashboard URL in: \(line)")
        let port = try #require(Int(match.1))
        #expect(port > 0)
        let client = HTTPTestClient(port: port, token: String(match.2))
        #expect(try await client.get("/api/health").status == 200)
        #expect(try await client.get("/api/sessions").status == 200)
        #expect(try await HTTPTestClient(port: port, token: nil).get("/api/sessions").status == 401)

        process.terminate()  // SIGTERM
        let exited = try await offPool { () -> Bool in
            let deadline = Date().addingTimeInterval(30)
            while process.isRunning && Date() < deadline { usleep(50_000) }
            return !process.isRunning
        }
        #expect(exited)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        // Nothing listens on the port any more.
        await #expect(throws: (any Error).self) { _ = try await client.get("/api/health") }
    }
}
