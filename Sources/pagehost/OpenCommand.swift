import Foundation
import MainLoop
import PagehostCore
import Synchronization
import WebKitEngine

/// `pagehost open URL|FILE`: one session, no server, every event printed as a JSON line on stdout.
///
/// Threads: the main thread parses arguments and waits; the session runs on the loop (LoopActor); SIGINT and
/// SIGTERM arrive on a dispatch queue and hop onto the loop to end the run cleanly.
enum OpenCommand {
    static func run(_ arguments: [String]) -> Int32 {
        let options: OpenOptions
        switch ArgumentReader.options(of: "open", usage: OpenOptions.usage, { try OpenOptions.parse(arguments) }) {
        case .success(let parsed): options = parsed
        case .failure(let exit): return exit.code
        }

        MainLoop.shared.start()
        let finished = DispatchSemaphore(value: 0)
        let run = OpenRun(options: options, finished: finished)
        let stops = StopSignals(label: "pagehost.signals") { Task { @LoopActor in await run.finish(exitCode: 0) } }
        Task { @LoopActor in await run.start() }
        finished.wait()
        stops.cancel()
        return run.exitCode.withLock { $0 }
    }
}

/// The one session of `pagehost open`. Thread: LoopActor.
@LoopActor
private final class OpenRun {
    private let options: OpenOptions
    private var host: SessionHost?
    private var finishing = false
    private nonisolated let finished: DispatchSemaphore
    nonisolated let exitCode = Mutex<Int32>(0)

    nonisolated init(options: OpenOptions, finished: DispatchSemaphore) {
        self.options = options
        self.finished = finished
    }

    func start() async {
        do {
            let host = SessionHost(engine: try WebKitEngine())
            self.host = host
            _ = host.events.subscribe { event in
                // One JSON line per event, flushed at once, so a pipe sees it while the session runs.
                FileHandle.standardOutput.write(Data((event.json.serialized + "\n").utf8))
            }
            try host.createSession(options.session, loading: options.request)
        } catch {
            FileHandle.standardError.write(Data("pagehost open: \(error.message)\n".utf8))
            await finish(exitCode: 1)
            return
        }
        if let duration = options.duration {
            try? await Task.sleep(for: .seconds(duration))
            await finish(exitCode: 0)
        }
    }

    /// Writes the screenshots asked for, closes the session (its closing events are printed too) and lets
    /// the main thread exit (the Xvfb pagehost started leaves with it).
    func finish(exitCode code: Int32) async {
        guard !finishing else { return }
        finishing = true
        exitCode.withLock { $0 = code }
        if let host {
            if let directory = options.screenshotDirectory {
                await writeScreenshots(of: host, to: directory)
            }
            host.closeAllSessions()
        }
        finished.signal()
    }

    private func writeScreenshots(of host: SessionHost, to directory: String) async {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            FileHandle.standardError.write(Data("pagehost open: cannot create \(directory): \(error)\n".utf8))
            exitCode.withLock { $0 = 1 }
            return
        }
        for session in host.snapshots {
            for page in session.pages {
                do {
                    let png = try await host.screenshot(page.id)
                    let path = directory + "/\(session.id)-\(page.id).png"
                    try Data(png).write(to: URL(fileURLWithPath: path))
                    FileHandle.standardError.write(Data("pagehost open: wrote \(path)\n".utf8))
                } catch {
                    FileHandle.standardError.write(Data("pagehost open: no screenshot of \(page.id): \(error)\n".utf8))
                    exitCode.withLock { $0 = 1 }
                }
            }
        }
    }
}
