/// Counts refusals of one kind (blocked popups of a session, suppressed dialogs of a page) so that a flood
/// is reported as at most one event per interval carrying a count, and nothing is lost: the first refusal
/// is reported at once, those within the interval after it are counted, and the count is reported when the
/// interval ends (or earlier, when the session closes).
struct RefusalReport {
    private(set) var lastReported: ContinuousClock.Instant?
    private(set) var pending = 0
    var flushScheduled = false

    enum Decision {
        /// Report this refusal now, on its own.
        case reportNow
        /// Counted; a flush must be scheduled for `at` unless one is.
        case counted(flushAt: ContinuousClock.Instant)
    }

    mutating func refused(now: ContinuousClock.Instant, interval: Duration) -> Decision {
        if let last = lastReported, now - last < interval {
            pending += 1
            return .counted(flushAt: last.advanced(by: interval))
        }
        lastReported = now
        return .reportNow
    }

    /// The count to report now (0: nothing to report); resets it.
    mutating func flush(now: ContinuousClock.Instant) -> Int {
        flushScheduled = false
        let count = pending
        pending = 0
        if count > 0 { lastReported = now }
        return count
    }
}
