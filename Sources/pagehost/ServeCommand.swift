import Foundation
import MainLoop
import PagehostCore
import Server
import Synchronization
import WebKitEngine

/// `pagehost serve`: the server (HTTP API, stream, dashboard) on the GLib loop with the WebKit engine.
///
/// Threads: the main thread parses the command line, starts the loop thread and then only waits; everything
/// else runs on the loop (LoopActor). SIGINT/SIGTERM arrive on a dispatch queue (not `DispatchQueue.main`,
/// which the GLib loop never drains) and hop onto the loop to shut down.
enum ServeCommand {
    static func run(_ arguments: [String]) -> Int32 {
        let configuration: ServerConfiguration
        do {
            configuration = try ServeOptions.configuration(arguments: arguments, environment: ProcessInfo.processInfo.environment)
        } catch {
            if error.isHelp {
                print(ServeOptions.usage, terminator: "")
                return 0
            }
            FileHandle.standardError.write(Data("pagehost serve: \(error.message)\n\n\(ServeOptions.usage)".utf8))
            return 2
        }

        MainLoop.shared.start()
        let finished = DispatchSemaphore(value: 0)
        let run = ServeRun(finished: finished)
        // Signals are taken off their default action and delivered to a dispatch source instead.
        let stops = StopSignals(label: "pagehost.signals") { Task { @LoopActor in run.shutdown(exitCode: 0) } }
        Task { @LoopActor in run.start(configuration) }
        finished.wait()
        stops.cancel()
        return run.exitCode.withLock { $0 }
    }
}

/// The running server and what `shutdown` undoes. Thread: LoopActor.
@LoopActor
private final class ServeRun {
    private var server: PagehostServer?
    private var host: SessionHost?
    private var stopping = false
    private nonisolated let finished: DispatchSemaphore
    nonisolated let exitCode = Mutex<Int32>(0)

    nonisolated init(finished: DispatchSemaphore) {
        self.finished = finished
    }

    func start(_ configuration: ServerConfiguration) {
        do {
            let engine = try WebKitEngine(customSchemes: configuration.customSchemes,
                                          pagesPerProcess: configuration.pagesPerProcess,
                                          navigationTimeout: configuration.navigationTimeout,
                                          javascriptCollectionThresholdMB: configuration.javascriptCollectionThreshold)
            let host = SessionHost(engine: engine, limits: configuration.hostLimits)
            let server = PagehostServer(host: host, configuration: configuration)
            try server.start()
            self.host = host
            self.server = server
            if configuration.demo {
                do {
                    try server.openDemoSession()
                } catch {
                    FileHandle.standardError.write(Data("pagehost: the demo session did not open: \(error.message)\n".utf8))
                }
            }
            FileHandle.standardOutput.write(Data("pagehost: listening on \(server.baseURL) — dashboard: \(server.dashboardURL)\n".utf8))
        } catch {
            FileHandle.standardError.write(Data("pagehost: \(error.message)\n".utf8))
            shutdown(exitCode: 1)
        }
    }

    /// Closes every session, stops listening, and lets `run` return. (An Xvfb pagehost started runs with
    /// `-terminate`, so it exits with this process.)
    func shutdown(exitCode code: Int32) {
        guard !stopping else { return }
        stopping = true
        exitCode.withLock { $0 = code }
        server?.stop()
        host?.closeAllSessions()
        finished.signal()
    }
}
