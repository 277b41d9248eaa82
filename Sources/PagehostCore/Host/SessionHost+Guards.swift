/// Defences against hostile pages: popup floods and dialog loops are bounded and reported as counted events,
/// and crashed pages follow the session's crash policy.
extension SessionHost {
    /// Reports a blocked popup: at once if none was reported in the last interval, else counted into the next
    /// `popup.blocked` (with `count`), so a flood of 1000 yields a handful of events and loses none.
    func reportPopupRefusal(in session: Session, opener: PageID, url: String, reason: Event.PopupBlockReason) {
        switch session.popupRefusals.refused(now: clock.now, interval: limits.refusalReportInterval) {
        case .reportNow:
            events.append(.popupBlocked(session.id, openerID: opener, url: url, reason: reason))
        case .counted(let flushAt):
            session.lastPopupRefusal = (opener, url, reason)
            guard !session.popupRefusals.flushScheduled else { return }
            session.popupRefusals.flushScheduled = true
            Task { @LoopActor [weak self, weak session] in
                try? await Task.sleep(until: flushAt, clock: .continuous)
                guard let self, let session, self.openSession(session.id) === session else { return }
                self.flushPopupRefusals(of: session)
            }
        }
    }

    func flushPopupRefusals(of session: Session) {
        let count = session.popupRefusals.flush(now: clock.now)
        guard count > 0, let last = session.lastPopupRefusal else { return }
        events.append(.popupsBlocked(session.id, openerID: last.opener, url: last.url, reason: last.reason, count: count))
    }

    /// Whether a page may show one more dialog. Past `dialogLimit` dialogs in `dialogWindow`, its dialogs are
    /// suppressed (answered at once with "dismiss" by the engine) until it navigates, and reported as
    /// `dialog.suppressed` with a count, at most once per interval.
    func admitDialog(_ kind: Dialog.Kind, on page: PageID, in session: Session) -> Bool {
        let now = clock.now
        var guarded = session.dialogGuards[page, default: Session.DialogGuard()]
        guarded.recent.removeAll { now - $0 > limits.dialogWindow }
        guarded.lastKind = kind
        if !guarded.suppressed, guarded.recent.count < limits.dialogLimit {
            guarded.recent.append(now)
            session.dialogGuards[page] = guarded
            return true
        }
        guarded.suppressed = true
        guarded.recent.removeAll()
        let decision = guarded.report.refused(now: now, interval: limits.refusalReportInterval)
        session.dialogGuards[page] = guarded
        switch decision {
        case .reportNow:
            events.append(.dialogsSuppressed(session.id, page, kind: kind, count: 1))
        case .counted(let flushAt):
            guard !guarded.report.flushScheduled else { break }
            session.dialogGuards[page]?.report.flushScheduled = true
            Task { @LoopActor [weak self, weak session] in
                try? await Task.sleep(until: flushAt, clock: .continuous)
                guard let self, let session, self.openSession(session.id) === session else { return }
                self.flushDialogRefusals(of: page, in: session, kind: session.dialogGuards[page]?.lastKind ?? kind)
            }
        }
        return false
    }

    func flushDialogRefusals(of page: PageID, in session: Session, kind: Dialog.Kind) {
        guard let count = session.dialogGuards[page]?.report.flush(now: clock.now), count > 0 else { return }
        events.append(.dialogsSuppressed(session.id, page, kind: kind, count: count))
    }

    /// Reports every refusal still being counted (before the session's `session.closed`).
    func flushRefusals(of session: Session) {
        flushPopupRefusals(of: session)
        for (page, guarded) in session.dialogGuards {
            flushDialogRefusals(of: page, in: session, kind: guarded.lastKind)
        }
    }

    /// `onCrash`: keep the crashed page, reload it (a bounded number of times), or close it (a crashed main
    /// page closes its session). Only real crashes count, not a termination pagehost asked for. Acts on a later
    /// loop iteration, outside the engine's crash notification.
    func applyCrashPolicy(to page: PageID, in session: Session, reason: String) {
        guard reason == "crashed" || reason == "exceededMemoryLimit" else { return }
        switch session.options.onCrash {
        case .keep:
            return
        case .reload:
            let reloads = session.crashReloads[page, default: 0]
            guard reloads < session.options.maxCrashReloads else { return }
            session.crashReloads[page] = reloads + 1
            Task { @LoopActor [weak self] in
                guard let self, (try? self.page(page)) != nil else { return }
                try? self.engine.perform(.reload, in: page)
            }
        case .close:
            Task { @LoopActor [weak self, weak session] in
                guard let self, let session, self.openSession(session.id) === session, session.pages[page] != nil else { return }
                if page == session.mainPageID {
                    try? self.closeSession(session.id, reason: .crash)
                } else {
                    self.removePage(page, from: session, reason: .crash)
                }
            }
        }
    }
}
