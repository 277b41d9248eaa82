/// Timeouts that really reap: `maxLifetime`, `idleTimeout` and `dialogTimeout`. Each is one sleeping task
/// that wakes when the timeout could expire, never a poll.
extension SessionHost {
    func startTimers(for session: Session) {
        if let lifetime = session.options.maxLifetime {
            Task { @LoopActor [weak self, weak session] in
                try? await Task.sleep(for: lifetime)
                guard let self, let session, self.openSession(session.id) === session else { return }
                try? self.closeSession(session.id, reason: .maxLifetime)
            }
        }
        if let idle = session.options.idleTimeout {
            Task { @LoopActor [weak self, weak session] in
                while let self, let session, self.openSession(session.id) === session {
                    let expiry = session.lastActivity.advanced(by: idle)
                    if self.clock.now < expiry {
                        try? await Task.sleep(until: expiry, clock: .continuous)
                        continue
                    }
                    if self.isWatched?(session.id) == true {
                        // Watched counts as activity: look again a whole timeout later.
                        session.lastActivity = self.clock.now
                        continue
                    }
                    try? self.closeSession(session.id, reason: .idleTimeout)
                    return
                }
            }
        }
    }

    /// Answers a dialog with "dismiss" if it still waits after `timeout`.
    func startDialogTimer(_ id: DialogID, after timeout: Duration) {
        Task { @LoopActor [weak self] in
            try? await Task.sleep(for: timeout)
            guard let self, let dialog = self.pendingDialog(id) else { return }
            self.finish(dialog, answer: .dismiss, by: .timeout)
        }
    }
}
