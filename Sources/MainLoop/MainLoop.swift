import CGLib
import Foundation
import PagehostCore
import Synchronization

/// The GLib main loop that WebKit and libwebsockets run on, on a thread of its own, and the executor
/// that runs `LoopActor` jobs on it.
///
/// Threads: `start()` may be called from any thread; it spawns the loop thread, which acquires GLib's
/// default main context (WebKit attaches its sources there) and runs `g_main_loop_run` until `stop()`.
/// Everything WebKit- or lws-related must then happen on that thread, which is what `LoopActor` gives.
public final class MainLoop: Sendable {
    /// The process-wide loop. WebKit's "main thread" is the first thread that touches it, so there is one.
    public static let shared = MainLoop()

    private struct State {
        var thread: pthread_t?
        var started = false
    }

    private let state = Mutex(State())
    nonisolated(unsafe) private let loop: OpaquePointer
    public let executor: LoopExecutor

    private init() {
        loop = g_main_loop_new(g_main_context_default(), 0)
        executor = LoopExecutor()
    }

    /// Starts the loop thread (once) and installs its executor for `LoopActor`. Returns, in every caller,
    /// only once the loop thread owns the main context and the executor is installed, so jobs enqueued
    /// afterwards run there. (The lock is held throughout: a second caller waits for the first.)
    public func start() {
        state.withLock { s in
            guard !s.started else { return }
            let ready = DispatchSemaphore(value: 0)
            let box = Unmanaged.passRetained(ThreadStart(loop: self, ready: ready))
            var thread = pthread_t()
            let rc = pthread_create(&thread, nil, { raw in
                let start = Unmanaged<ThreadStart>.fromOpaque(raw!).takeRetainedValue()
                start.loop.runOnThisThread(ready: start.ready)
                return nil
            }, box.toOpaque())
            precondition(rc == 0, "could not start the main loop thread: \(rc)")
            ready.wait()
            LoopActor.install(executor)
            s.thread = thread
            s.started = true
        }
    }

    private func runOnThisThread(ready: DispatchSemaphore) {
        let context = g_main_context_default()
        // Owning the default context is what makes this thread the loop thread.
        precondition(g_main_context_acquire(context) != 0, "the GLib default main context is owned elsewhere")
        executor.bind(to: pthread_self())
        ready.signal()
        g_main_loop_run(loop)
        g_main_context_release(context)
    }

    /// Stops the loop; the thread exits after the current iteration.
    public func stop() {
        g_main_loop_quit(loop)
    }

    /// Whether the caller runs on the loop thread.
    public var isLoopThread: Bool { executor.isLoopThread }

    /// The `GMainLoop*`, for libraries that run as guests on this loop (libwebsockets' `foreign_loops`).
    public var rawLoop: UnsafeMutableRawPointer { UnsafeMutableRawPointer(loop) }
}

private final class ThreadStart: @unchecked Sendable {
    let loop: MainLoop
    let ready: DispatchSemaphore
    init(loop: MainLoop, ready: DispatchSemaphore) {
        self.loop = loop
        self.ready = ready
    }
}
