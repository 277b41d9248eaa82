import Foundation
import MainLoop
import PagehostCore
import Testing

/// Starts the GLib loop thread that runs `LoopActor` and returns once `LoopActor` has its executor.
///
/// Suites start concurrently, and `MainLoop.start()` as of 18da4d1 returns at once to a second caller while the
/// first is still starting the thread, before the executor is installed; so each suite waits for the install.
func startLoop() {
    MainLoop.shared.start()
    let deadline = Date().addingTimeInterval(5)
    while !LoopActor.isInstalled, Date() < deadline { usleep(100) }
    precondition(LoopActor.isInstalled, "MainLoop.start() did not install LoopActor's executor")
}

/// Polls `condition` on the loop until it holds or `timeout` passes, letting queued loop jobs run between
/// checks. Returns whether it held.
@LoopActor
func waitUntil(timeout: Duration = .seconds(5), _ condition: () -> Bool) async throws -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while !condition() {
        guard clock.now < deadline else { return false }
        try await Task.sleep(for: .milliseconds(5))
    }
    return true
}

/// Awaits `body` and returns the `PagehostError` it threw, or nil. Any other error is a test failure.
@LoopActor
func pagehostError(sourceLocation: SourceLocation = #_sourceLocation, _ body: @LoopActor () async throws -> Void) async -> PagehostError? {
    do {
        try await body()
        return nil
    } catch {
        return expectPagehostError(error, sourceLocation)
    }
}

/// Runs `body` and returns the `PagehostError` it threw, or nil. Any other error is a test failure.
func pagehostError(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) -> PagehostError? {
    do {
        try body()
        return nil
    } catch {
        return expectPagehostError(error, sourceLocation)
    }
}

private func expectPagehostError(_ error: any Error, _ sourceLocation: SourceLocation) -> PagehostError? {
    if let error = error as? PagehostError { return error }
    Issue.record("expected a PagehostError, got \(error)", sourceLocation: sourceLocation)
    return nil
}
