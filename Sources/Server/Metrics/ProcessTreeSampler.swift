import Foundation
import PagehostCore

/// pagehost's process tree for `/metrics`, read off the loop thread and at most once per `interval`: reading
/// PSS costs about a millisecond per process, and a load client that scrapes every second must not turn that
/// into load on the server it measures.
///
/// Thread: LoopActor; the /proc reading runs on a detached task.
@LoopActor
final class ProcessTreeSampler {
    private let interval: Duration
    private var last: (at: ContinuousClock.Instant, tree: ProcessTree)?

    init(interval: Duration = .seconds(5)) {
        self.interval = interval
    }

    func current() async -> ProcessTree {
        let now = ContinuousClock.now
        if let last, now - last.at < interval { return last.tree }
        let root = getpid()
        let tree = await Task.detached { ProcessTree.of(root, readingPSS: true) }.value
        last = (now, tree)
        return tree
    }
}
