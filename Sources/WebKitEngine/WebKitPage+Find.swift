import CWebKitGTK
import PagehostCore

extension WebKitPage {
    /// The find controller answers a search with `found-text` (with the number of matches) or
    /// `failed-to-find-text`; every request waiting then gets that count.
    func connectFindSignals() {
        let controller = UnsafeMutableRawPointer(webkit_web_view_get_find_controller(view))!
        typealias Found = @convention(c) (gpointer?, guint, gpointer?) -> Void
        let found: Found = { _, count, data in
            let target = SignalTarget<WebKitPage>.from(data)
            LoopActor.assumeIsolated { target.target?.finishFinds(Int(count)) }
        }
        signals.connect(controller, "found-text", found)
        typealias Failed = @convention(c) (gpointer?, gpointer?) -> Void
        let failed: Failed = { _, data in
            let target = SignalTarget<WebKitPage>.from(data)
            LoopActor.assumeIsolated { target.target?.finishFinds(0) }
        }
        signals.connect(controller, "failed-to-find-text", failed)
    }

    func finishFinds(_ count: Int) {
        let waiting = pendingFinds
        pendingFinds.removeAll()
        for continuation in waiting { continuation.resume(returning: count) }
    }

    /// Runs a find command. Searches wait for WebKit's answer, at most `findDeadline` (a page whose web
    /// process hangs must not hang the caller).
    func find(_ command: FindCommand) async throws(PagehostError) -> Int? {
        let controller = webkit_web_view_get_find_controller(view)
        switch command {
        case .clear:
            webkit_find_controller_search_finish(controller)
            return nil
        case .search(let text, let caseInsensitive):
            var options = WEBKIT_FIND_OPTIONS_WRAP_AROUND.rawValue
            if caseInsensitive { options |= WEBKIT_FIND_OPTIONS_CASE_INSENSITIVE.rawValue }
            let count = try await awaitFind { webkit_find_controller_search(controller, text, options, guint(Int32.max)) }
            lastFindCount = count
            return count
        case .next:
            guard webkit_find_controller_get_search_text(controller) != nil else {
                throw PagehostError(.conflict, "there is no search to continue: search for a text first")
            }
            // WebKit answers a step with the matches it stepped over, not the total: keep the search's total.
            return try await awaitFind { webkit_find_controller_search_next(controller) } > 0 ? lastFindCount : 0
        case .previous:
            guard webkit_find_controller_get_search_text(controller) != nil else {
                throw PagehostError(.conflict, "there is no search to continue: search for a text first")
            }
            return try await awaitFind { webkit_find_controller_search_previous(controller) } > 0 ? lastFindCount : 0
        }
    }

    static let findDeadline: Duration = .seconds(10)

    private func awaitFind(_ start: () -> Void) async throws(PagehostError) -> Int {
        let deadline = Task { @LoopActor [weak self] in
            try await Task.sleep(for: WebKitPage.findDeadline)
            self?.finishFinds(-1)
        }
        defer { deadline.cancel() }
        let count = await withCheckedContinuation { continuation in
            pendingFinds.append(continuation)
            start()
        }
        guard count >= 0 else { throw PagehostError(.unavailable, "the page did not answer the search in time") }
        return count
    }
}
