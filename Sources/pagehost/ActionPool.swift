import Foundation

/// A few threads of its own that run blocking jobs (HTTP calls) in the order given, so the stream reader
/// never waits on a request and the number of requests in flight stays bounded.
///
/// Threads: `submit` and `drain` from any thread; jobs run on the pool's threads.
final class ActionPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var running = 0
    private var stopping = false
    private var threads: [Thread] = []

    init(threads count: Int, name: String) {
        for i in 0..<count {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "\(name)-\(i)"
            thread.stackSize = 512 << 10
            threads.append(thread)
            thread.start()
        }
    }

    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until every job submitted so far has run.
    func drain() {
        condition.lock()
        while head < jobs.count || running > 0 { condition.wait() }
        condition.unlock()
    }

    /// Lets the threads end once the queue is empty.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while head == jobs.count && !stopping { condition.wait() }
            if head == jobs.count {
                condition.unlock()
                return
            }
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll()
                head = 0
            }
            running += 1
            condition.unlock()
            job()
            condition.lock()
            running -= 1
            condition.broadcast()
            condition.unlock()
        }
    }
}
