import Foundation
import MainLoop
import PagehostCore
import Server
import WebKitEngine

/// The pagehost server `pagehost load` starts when it is given no `--server`: the WebKit engine, a session
/// host and the HTTP/stream server on a free loopback port with a random token, no demo session.
///
/// Threads: `start` and `stop` are called from the main thread and block it while the work runs on the
/// loop thread (LoopActor), which `start` starts. The fields are written on the loop thread before a
/// semaphore is signalled and read on the main thread after it is waited on, so they are never shared at once.
final class InProcessServer: @unchecked Sendable {
    private var server: PagehostServer?
    private var host: SessionHost?
    private var outcome: Result<(port: Int, token: String), StartFailure>?

    /// Starts the server; returns its port and token.
    func start(maxSessions: Int) throws -> (port: Int, token: String) {
        MainLoop.shared.start()
        let done = DispatchSemaphore(value: 0)
        Task { @LoopActor in
            do {
                var configuration = ServerConfiguration()
                configuration.port = 0
                configuration.demo = false
                configuration.limits.sessions = max(configuration.limits.sessions, maxSessions)
                let engine = try WebKitEngine(customSchemes: configuration.customSchemes,
                                              pagesPerProcess: configuration.pagesPerProcess,
                                              navigationTimeout: configuration.navigationTimeout,
                                              javascriptCollectionThresholdMB: configuration.javascriptCollectionThreshold)
                let host = SessionHost(engine: engine, limits: configuration.hostLimits)
                let server = PagehostServer(host: host, configuration: configuration)
                let port = try server.start()
                self.server = server
                self.host = host
                self.outcome = .success((port, server.token))
            } catch {
                self.outcome = .failure(StartFailure(message: "\(error)"))
            }
            done.signal()
        }
        done.wait()
        return try outcome!.get()
    }

    /// Stops listening and closes whatever sessions are still open.
    func stop() {
        guard server != nil else { return }
        let done = DispatchSemaphore(value: 0)
        Task { @LoopActor in
            self.server?.stop()
            self.host?.closeAllSessions()
            self.server = nil
            self.host = nil
            done.signal()
        }
        done.wait()
    }

    struct StartFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { "the in-process server did not start: \(message)" }
    }
}
