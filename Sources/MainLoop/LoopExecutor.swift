import CGLib
import Foundation
import Synchronization

/// A serial executor whose jobs run on the GLib main-loop thread.
///
/// `enqueue` may be called from any thread: the job goes into a queue, and when the queue was empty an idle
/// source (default priority, so redraws cannot starve it) is attached to the default main context, which
/// wakes the loop. The source drains the jobs queued so far, in order. Jobs are never run inside `enqueue`,
/// even on the loop thread (an executor must not run a job re-entrantly).
public final class LoopExecutor: SerialExecutor, Sendable {
    private struct Queue {
        var jobs: [UnownedJob] = []
        var scheduled = false
    }

    private let queue = Mutex(Queue())
    private let owner = Mutex<pthread_t?>(nil)

    init() {}

    func bind(to thread: pthread_t) {
        owner.withLock { $0 = thread }
    }

    var isLoopThread: Bool {
        guard let thread = owner.withLock({ $0 }) else { return false }
        return pthread_equal(thread, pthread_self()) != 0
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let mustSchedule = queue.withLock { q -> Bool in
            q.jobs.append(unowned)
            if q.scheduled { return false }
            q.scheduled = true
            return true
        }
        if mustSchedule {
            let me = Unmanaged.passRetained(self).toOpaque()
            g_idle_add_full(G_PRIORITY_DEFAULT, { raw in
                let executor = Unmanaged<LoopExecutor>.fromOpaque(raw!).takeUnretainedValue()
                executor.drain()
                return 0  // G_SOURCE_REMOVE
            }, me, { raw in
                Unmanaged<LoopExecutor>.fromOpaque(raw!).release()
            })
        }
    }

    /// Runs on the loop thread: takes the jobs queued so far and runs them in order.
    private func drain() {
        let jobs = queue.withLock { q -> [UnownedJob] in
            let jobs = q.jobs
            q.jobs.removeAll(keepingCapacity: true)
            q.scheduled = false
            return jobs
        }
        let me = asUnownedSerialExecutor()
        for job in jobs {
            job.runSynchronously(on: me)
        }
    }

    public func checkIsolated() {
        precondition(isLoopThread, "expected to run on the GLib main-loop thread")
    }

    public func isIsolatingCurrentContext() -> Bool? {
        isLoopThread
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
