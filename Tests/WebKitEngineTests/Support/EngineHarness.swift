import Foundation
import MainLoop
import PagehostCore
import Testing
import WebKitEngine

/// A real WebKit engine behind a real `SessionHost`, and every event it emits, for one test.
///
/// Waiting is always on a condition with a deadline (polling the recorded events), never a fixed sleep.
@LoopActor
final class EngineHarness {
    let host: SessionHost
    let engine: WebKitEngine
    private(set) var events: [Event] = []
    private var token = 0

    /// WebKit page loads on a loaded 2-core machine can take seconds; failures still end in bounded time.
    static let deadline: Duration = .seconds(30)

    private init(engine: WebKitEngine, limits: HostLimits) {
        self.engine = engine
        host = SessionHost(engine: engine, limits: limits)
        token = host.events.subscribe { [unowned self] event in self.events.append(event) }
    }

    /// Needs the loop running: test suites start it in their `init`.
    static func make(limits: HostLimits = HostLimits(), customSchemes: [CustomScheme] = [], pagesPerProcess: Int = 16,
                     navigationTimeout: Duration = .seconds(30)) throws -> EngineHarness {
        try EngineHarness(engine: WebKitEngine(customSchemes: customSchemes, pagesPerProcess: pagesPerProcess,
                                               navigationTimeout: navigationTimeout), limits: limits)
    }

    /// Closes every session this harness opened.
    func tearDown() {
        host.closeAllSessions()
        host.events.unsubscribe(token)
    }

    /// Creates a session and waits until its main page finished (or failed) its first navigation.
    func openSession(_ request: LoadRequest, options: SessionOptions = SessionOptions(), waitForLoad: Bool = true) async throws -> (SessionID, PageID) {
        let snapshot = try host.createSession(options, loading: request)
        let main = snapshot.order[0]
        if waitForLoad { try await waitForNavigation(main, .finished) }
        return (snapshot.id, main)
    }

    /// Waits until the page's current navigation reached `event`.
    func waitForNavigation(_ page: PageID, _ event: Navigation.Event, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await waitUntil("page \(page) navigation \(event)", sourceLocation: sourceLocation) {
            (try? self.host.page(page).navigation?.event) == event
        }
    }

    /// Waits for the first recorded event (from `after` on) that matches, and returns it.
    @discardableResult
    func waitForEvent(_ description: String, after seq: UInt64 = 0, sourceLocation: SourceLocation = #_sourceLocation,
                      _ matches: (Event) -> Bool) async throws -> Event {
        var found: Event?
        try await waitUntil(description, sourceLocation: sourceLocation) {
            found = self.events.first { $0.seq > seq && matches($0) }
            return found != nil
        }
        return found!
    }

    /// Polls `condition` on the loop until it holds or the deadline passes (a recorded test failure).
    func waitUntil(_ description: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool) async throws {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: EngineHarness.deadline)
        while !condition() {
            guard clock.now < end else {
                let recent = events.suffix(12).map { $0.json.serialized }.joined(separator: "\n")
                Issue.record("timed out waiting for \(description); last events:\n\(recent)", sourceLocation: sourceLocation)
                throw HarnessError.timedOut(description)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Evaluates in a page and fails the test on a script error.
    func eval(_ page: PageID, _ script: String, _ arguments: [(String, JSONValue)] = []) async throws -> JSONValue {
        try await host.evaluate(script, arguments: arguments, in: page)
    }

    /// The `page.opened` events of popups.
    var openedPopups: [PageState] {
        events.compactMap { if case .pageOpened(let p) = $0.payload, p.role == .popup { return p } else { return nil } }
    }
}

enum HarnessError: Error {
    case timedOut(String)
}

extension EngineHarness {
    /// Awaits `task`'s value, failing the test if it has not come by the deadline (the task is cancelled;
    /// a script stuck behind a dialog cannot hang the suite).
    func value<T: Sendable>(of task: Task<T, any Error>, _ description: String,
                            sourceLocation: SourceLocation = #_sourceLocation) async throws -> T {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: EngineHarness.deadline)
        let box = ResultBox<T>()
        Task { @LoopActor in box.result = await task.result }
        while box.result == nil {
            guard clock.now < end else {
                task.cancel()
                Issue.record("timed out waiting for \(description)", sourceLocation: sourceLocation)
                throw HarnessError.timedOut(description)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        return try box.result!.get()
    }

    /// A free loopback port nothing listens on: bound, then closed.
    nonisolated static func closedPort() -> UInt16 {
        let server = try! TestHTTPServer { _ in .init() }
        let port = server.port
        server.stop()
        return port
    }
}

@LoopActor
final class ResultBox<T: Sendable> {
    var result: Result<T, any Error>?
}
