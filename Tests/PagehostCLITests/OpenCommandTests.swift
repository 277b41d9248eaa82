import Foundation
import PagehostCore
import Testing

/// `pagehost open`: the real executable, the real engine, the bundled demo page.
@Suite
struct OpenCommandTests {
    @Test func theDemoPagePrintsItsPopupAndItsDialogAsJSONLines() async throws {
        let shots = FileManager.default.temporaryDirectory.appendingPathComponent("pagehost-shots-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: shots) }
        let demo = PagehostProcess.repository.appendingPathComponent("examples/demo/index.html").path
        // Runs until the demo has shown its popup and its dialog, then Ctrl-C: no fixed duration to outrun.
        let output = try await PagehostProcess.run(["open", demo, "--dialogs", "dismiss", "--screenshot", shots.path],
                                                   interruptWhen: { $0.contains("\"dialog.closed\"") && $0.contains("\"role\":\"popup\"") })
        #expect(output.status == 0, "stderr: \(output.stderr)")
        let events = try output.events()
        let types = events.compactMap { $0["type"]?.stringValue }
        #expect(types.first == "session.created")
        #expect(types.last == "session.closed")

        let popup = try #require(events.first { $0["type"] == "page.opened" && $0["openerId"] != .null })
        let main = try #require(events.first { $0["type"] == "page.opened" && $0["openerId"] == .null })
        #expect(popup["openerId"] == main["pageId"])
        #expect(popup["page"]?["role"] == "popup")

        let dialog = try #require(events.first { $0["type"] == "dialog.opened" })
        #expect(dialog["dialog"]?["kind"] == "confirm")
        let answered = try #require(events.first { $0["type"] == "dialog.closed" })
        #expect(answered["answer"]?["accept"] == false)
        #expect(answered["by"] == "policy")

        // seq increases by one from line to line: nothing printed is lost or reordered.
        let seqs = events.compactMap { $0["seq"]?.intValue }
        #expect(seqs == Array(1...seqs.count))

        // One PNG per page open at the end.
        let files = try FileManager.default.contentsOfDirectory(atPath: shots.path).sorted()
        #expect(files.count == 2)
        for file in files {
            let bytes = try Data(contentsOf: shots.appendingPathComponent(file))
            #expect(Array(bytes.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        }
    }

    @Test func ctrlCClosesTheSessionCleanly() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("pagehost-open-\(UUID().uuidString).jsonl")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let process = Process()
        process.executableURL = PagehostProcess.executable
        process.arguments = ["open", "data:text/html,<title>waiting</title>"]
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = FileHandle.nullDevice
        try process.run()
        func printed() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        // Without --duration it runs until interrupted: wait for the page to load, then press Ctrl-C.
        let deadline = Date().addingTimeInterval(60)
        while !printed().contains("\"finished\""), process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(process.isRunning)
        process.interrupt()
        while process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!process.isRunning)
        #expect(process.terminationStatus == 0)
        let types = printed().split(separator: "\n").compactMap { try? JSONParser.parse(String($0))["type"]?.stringValue }
        #expect(Array(types.suffix(2)) == ["page.closed", "session.closed"])
    }

    @Test(arguments: [
        (["open"], "a URL or FILE"),
        (["open", "about:blank", "--popup-mode", "sideways"], "--popup-mode"),
        (["open", "about:blank", "--dialogs", "ask"], "--dialogs"),
        (["open", "about:blank", "--viewport", "10x10"], "--viewport"),
        (["open", "about:blank", "--duration", "-1"], "--duration"),
        (["open", "about:blank", "--frobnicate"], "--frobnicate"),
        (["open", "/no/such/file.html"], "/no/such/file.html"),
        (["teleport"], "teleport"),
    ])
    func badArgumentsExitWithTwoAndSayWhat(arguments: [String], named: String) async throws {
        let output = try await PagehostProcess.run(arguments)
        #expect(output.status == 2)
        #expect(output.stderr.contains(named))
        #expect(output.stdout.isEmpty)
    }

    @Test func helpListsTheCommands() async throws {
        let output = try await PagehostProcess.run(["--help"])
        #expect(output.status == 0)
        for command in ["serve", "open"] {
            #expect(output.stdout.contains("  \(command)"))
        }
        let open = try await PagehostProcess.run(["open", "--help"])
        #expect(open.status == 0)
        #expect(open.stdout.contains("--screenshot DIR"))
    }
}
