/// An admin closing a popup, as its window's Close button would in a browser: the page is asked first (its
/// `beforeunload` handlers run and may show a "Leave page?" dialog), and closed anyway, `forced`, when it
/// does not agree in time. A page cannot keep itself open against the operator.
extension SessionHost {
    /// The outcome of an admin close.
    public struct ClosedPage: Sendable, Equatable {
        public let id: PageID
        /// The page did not agree to close (it stayed, did not answer within `closeGracePeriod`, or could not be
        /// asked) and was closed regardless.
        public let forced: Bool
    }

    /// Closes a popup and returns once it is gone. The main page closes only with its session (conflict).
    ///
    /// The page is asked through the engine (`requestClose`); a `beforeunload` dialog it shows waits for its
    /// answer like any dialog. "Leave" closes it; "Stay", or no agreement within `limits.closeGracePeriod`,
    /// closes it forced. A page that cannot be asked is closed forced at once: one reported unresponsive (a
    /// busy loop), or one whose session has a dialog waiting (its scripts are suspended until the answer).
    /// Closing a page already being closed waits for that close.
    @discardableResult
    public func closePage(_ id: PageID, in sessionID: SessionID? = nil) async throws(PagehostError) -> ClosedPage {
        guard let session = sessionOf(id), let page = session.pages[id], sessionID == nil || sessionID == session.id else {
            throw .noPage(id)
        }
        session.lastActivity = clock.now
        guard id != session.mainPageID else {
            throw PagehostError(.conflict, "page \(id) is the main page of session \(session.id): it closes only with its session")
        }
        if session.closingPages[id] == nil {
            guard page.responsive, session.dialogs.isEmpty else {
                removePage(id, from: session, reason: .admin, forced: true)
                return ClosedPage(id: id, forced: true)
            }
            session.closingPages[id] = Session.ClosingPage()
            startCloseGraceTimer(id, in: session)
            engine.requestClose(id)
        }
        // The page may already be gone: the engine's answer can come before this caller waits.
        guard session.closingPages[id] != nil else { return ClosedPage(id: id, forced: false) }
        let forced = await withCheckedContinuation { waiter in
            session.closingPages[id]?.waiters.append(waiter)
        }
        return ClosedPage(id: id, forced: forced)
    }

    /// Closes, forced, a page the admin is closing once its grace period is over.
    private func startCloseGraceTimer(_ id: PageID, in session: Session) {
        Task { @LoopActor [weak self, weak session] in
            guard let self else { return }
            try? await Task.sleep(for: self.limits.closeGracePeriod)
            guard let session else { return }
            self.forceClose(id, in: session)
        }
    }

    /// Closes, forced, a page an admin is still closing (nothing when it already went).
    private func forceClose(_ id: PageID, in session: Session) {
        guard session.closingPages[id] != nil, session.pages[id] != nil else { return }
        removePage(id, from: session, reason: .admin, forced: true)
    }

    /// A page answered "Stay" to its `beforeunload` dialog. If an admin is closing it, the page has had its
    /// chance: it closes now, forced (on the next loop iteration, after the engine handed over the answer).
    func pageStayed(_ id: PageID, in session: Session) {
        guard session.closingPages[id] != nil else { return }
        Task { @LoopActor [weak self, weak session] in
            guard let self, let session else { return }
            self.forceClose(id, in: session)
        }
    }
}
