import Foundation
import PagehostClient
import Synchronization

/// `pagehost load`: many sessions through the public API, watched on the stream, then a report.
///
/// Threads: the main thread parses arguments and runs the load (`LoadRun`: its own threads, never the loop).
/// Without `--server` the in-process server runs on the GLib loop thread like `pagehost serve`. SIGINT and
/// SIGTERM arrive on a dispatch queue: the first interrupts the run (what it opened is closed and the report
/// printed), a second exits at once with status 130.
enum LoadCommand {
    static func run(_ arguments: [String]) -> Int32 {
        let options: LoadOptions
        switch ArgumentReader.options(of: "load", usage: LoadOptions.usage, { try LoadOptions.parse(arguments) }) {
        case .success(let parsed): options = parsed
        case .failure(let exit): return exit.code
        }

        let current = Mutex<LoadRun?>(nil)
        let interrupts = Mutex(0)
        let stops = StopSignals(label: "pagehost.load.signals") {
            let count = interrupts.withLock { $0 += 1; return $0 }
            if count > 1 { _exit(130) }
            FileHandle.standardError.write(Data("\npagehost load: interrupted, closing what it opened (again to quit at once)\n".utf8))
            current.withLock { $0 }?.interrupt()
        }
        defer { stops.cancel() }

        var inProcess: InProcessServer?
        var api: PagehostAPI
        if let address = options.server {
            api = PagehostAPI(address: address, token: options.token, timeout: options.timeout)
        } else {
            let server = InProcessServer()
            inProcess = server
            do {
                let (port, token) = try server.start(maxSessions: options.sessions)
                api = PagehostAPI(address: ServerAddress(host: "127.0.0.1", port: port), token: token, timeout: options.timeout)
            } catch {
                FileHandle.standardError.write(Data("pagehost load: \(error)\n".utf8))
                return 1
            }
        }
        defer { inProcess?.stop() }

        do {
            _ = try api.health()
        } catch {
            FileHandle.standardError.write(Data("pagehost load: the server at \(api.address) does not answer /api/health: \(error)\n".utf8))
            return 1
        }
        let run = LoadRun(options: options, api: api, processTreeRoot: inProcess == nil ? nil : getpid())
        current.withLock { $0 = run }
        if interrupts.withLock({ $0 }) > 0 { run.interrupt() }
        let report: LoadReport
        do {
            report = try run.run()
        } catch {
            FileHandle.standardError.write(Data("pagehost load: \(error)\n".utf8))
            return 1
        }
        if options.json {
            print(report.json.serialized)
        } else {
            print(report.table, terminator: "")
        }
        return report.exitCode
    }
}
